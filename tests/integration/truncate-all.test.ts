import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditJournal, rateLimits, webhookEndpoints } from "../../app/platform/schema.server";
import { signedInAdmin } from "../support/admin";
import { insertRequest } from "../support/contacts";
import { testDatabaseKind, truncateAll } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

// truncateAll empties the tables row by row (much cheaper than TRUNCATE on a few rows); what it
// leaves must be what `truncate … restart identity cascade` leaves.

const database = useTestDatabase();

async function fill() {
  const db = database.db;
  await signedInAdmin(db);
  await insertOffers(db, [buildOffer(1), buildOffer(2)]);
  await insertRequest(db, {
    name: "Jeanne",
    email: "jeanne@example.fr",
    notes: [{ body: "Rappeler" }],
    statusChanges: 2,
    mails: 1,
  });
  await insertRequest(db, { name: "Paul", email: "paul@example.fr", spam: true });
  await db.insert(webhookEndpoints).values({
    url: "https://example.fr/hook",
    events: ["contact.created"],
    secret: "secret",
  });
  await db.insert(auditJournal).values({ action: "test" });
  await db.insert(rateLimits).values({ key: "k", count: 1, resetAt: new Date() });
}

/** Every table's row count and every sequence's position. */
async function state() {
  const tables = await database.db.execute(
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows as { name: string }[]) {
    const result = await database.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(name)}`,
    );
    counts[name] = (result.rows[0] as { n: number }).n;
  }
  const sequences = await database.db.execute(
    sql`select sequencename, last_value from pg_sequences where schemaname = 'public' order by 1`,
  );
  return { counts, sequences: sequences.rows };
}

it(`empties the same tables and restarts the same ids as TRUNCATE (${testDatabaseKind})`, async () => {
  await fill();
  const filled = await state();
  expect(Object.values(filled.counts).filter((n) => n > 0).length).toBeGreaterThan(10);
  const files = () =>
    database.db.execute(sql`select relfilenode from pg_class where relname = 'contact_requests'`);
  const before = (await files()).rows;
  await truncateAll(database.db);
  // Rows deleted, not a TRUNCATE (which gives the table a new file).
  expect((await files()).rows).toEqual(before);
  const emptied = await state();
  await fill();
  expect(await state()).toEqual(filled);
  await database.db.execute(
    sql`truncate contact_requests, offers, datacenters, sessions, users, rate_limits, app_state, webhook_endpoints, audit_journal restart identity cascade`,
  );
  expect(emptied).toEqual(await state());
});
