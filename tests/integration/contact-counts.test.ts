import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { contactRequestCounts, contactRequests } from "../../app/platform/schema.server";
import { useTestDatabase } from "../support/use-test-database";

// The per-status counters of migration 0003 follow every insert, update, delete and truncate.
const database = useTestDatabase();

async function counts() {
  const rows = await database.db.select().from(contactRequestCounts);
  return Object.fromEntries(rows.filter((r) => r.count !== 0).map((r) => [r.key, r.count]));
}

async function recount() {
  const result = (await database.db.execute(
    sql`select (case when suspected_spam then 'spam' else 'status:' || status end) as key,
               count(*)::int as count from contact_requests group by 1`,
  )) as unknown as { rows: { key: string; count: number }[] };
  return Object.fromEntries(result.rows.map((r) => [r.key, r.count]));
}

test("counters match a full count after inserts, status changes, spam flags, deletes", async () => {
  const base = { email: "a@example.fr", message: "Bonjour" };
  const inserted = await database.db
    .insert(contactRequests)
    .values([
      { ...base, name: "A" },
      { ...base, name: "B" },
      { ...base, name: "C", suspectedSpam: true },
      { ...base, name: "D", status: "completed" },
    ])
    .returning({ id: contactRequests.id });
  expect(await counts()).toEqual({ "status:pending": 2, "status:completed": 1, spam: 1 });

  await database.db.execute(
    sql`update contact_requests set status = 'in_progress' where id = ${inserted[0].id}`,
  );
  await database.db.execute(
    sql`update contact_requests set suspected_spam = false where id = ${inserted[2].id}`,
  );
  await database.db.execute(sql`delete from contact_requests where id = ${inserted[3].id}`);
  expect(await counts()).toEqual({ "status:pending": 2, "status:in_progress": 1 });
  expect(await counts()).toEqual(await recount());

  await database.db.execute(sql`truncate contact_requests cascade`);
  expect(await counts()).toEqual({});
  await database.db.insert(contactRequests).values({ ...base, name: "E" });
  await database.db.execute(sql`select refresh_contact_request_counts()`);
  expect(await counts()).toEqual({ "status:pending": 1 });
});
