import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { count, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgres } from "../../app/platform/db.server";
import { offers } from "../../app/platform/schema.server";
import { DEMO_OFFERS, seedIfEmpty } from "../../app/features/setup/seed.server";
import { testDatabaseKind } from "../support/database";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const migrationCount = (
  JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: unknown[] }
).entries.length;

// Instances starting together on one PostgreSQL database take turns: migrations and the demo seed
// run once, under an advisory lock. (The embedded database has one process per directory.)
describe.skipIf(testDatabaseKind !== "postgres")("start-up lock (postgres)", () => {
  it("serialises migrate + seed across connections; each runs once", async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handles = await Promise.all([1, 2, 3].map(() => openPostgres(url.toString())));
    try {
      const events: string[] = [];
      const seeded: boolean[] = [];
      await Promise.all(
        handles.map((h, i) =>
          h.withStartupLock(async (db) => {
            events.push(`${i} in`);
            await sleep(200);
            await h.migrate(db);
            seeded.push(await seedIfEmpty(db));
            events.push(`${i} out`);
          }),
        ),
      );
      for (let k = 0; k < events.length; k += 2) {
        expect(events[k + 1]).toBe(events[k].replace("in", "out"));
      }
      expect(seeded.filter(Boolean)).toHaveLength(1);
      const db = handles[0].db;
      const [{ n }] = await db.select({ n: count() }).from(offers);
      expect(n).toBe(DEMO_OFFERS.length);
      const result = (await db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: { n: number }[] };
      expect(result.rows[0].n).toBe(migrationCount);

      // A start-up that fails inside a transaction leaves its connection unable to unlock: the
      // lock must still be released (the connection is closed), or the next start-up waits forever.
      await expect(
        handles[0].withStartupLock(async (db) => {
          await db.execute(sql`begin`);
          await db.execute(sql`select 1 / 0`);
        }),
      ).rejects.toThrow(/select 1 \/ 0/);
      const next = handles[1].withStartupLock(async () => "acquired");
      const timeout = sleep(5_000).then(() => "still waiting");
      expect(await Promise.race([next, timeout])).toBe("acquired");
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
