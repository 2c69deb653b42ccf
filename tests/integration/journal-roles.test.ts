import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as signInRoute from "../../app/routes/admin/sign-in";
import { backupDatabase, restoreDatabase } from "../../app/platform/backup.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import {
  openPostgres,
  setCurrentDatabase,
  type Database,
  type DatabaseHandle,
} from "../../app/platform/db.server";
import {
  journalIsUnprotected,
  PendingMigrationsError,
  TableOwnershipError,
} from "../../app/platform/db-roles.server";
import { listJournal, purgeJournal } from "../../app/platform/journal.server";
import { auditJournal } from "../../app/platform/schema.server";
import { prepareDatabaseWhenReachable } from "../../app/features/setup/startup.server";
import { ADMIN, call, makeRequest, testContext } from "../support/admin";
import { visitor } from "../support/contacts";
import {
  createTwoRoleDatabase,
  testDatabaseKind,
  type TwoRoleDatabase,
  withClient,
} from "../support/database";

// The journal append-only in the database (issue 28): with MIGRATION_DATABASE_URL the owner role
// migrates and grants DATABASE_URL's role only INSERT and SELECT on the journal. Two roles and a
// database of their own, on the PostgreSQL pass only (the embedded database has one role).
vi.hoisted(() => {
  process.env.SEED_DEMO = "false";
  process.env.ADMIN_EMAIL = "admin@example.fr";
  process.env.ADMIN_PASSWORD = "correct horse battery staple";
});

describe.skipIf(testDatabaseKind !== "postgres")("journal with two roles (postgres)", () => {
  let database: TwoRoleDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await createTwoRoleDatabase();
    // As the server starts: DATABASE_URL is the server's role, MIGRATION_DATABASE_URL the owner;
    // the first administrator comes from ADMIN_EMAIL and ADMIN_PASSWORD (vi.hoisted above).
    handle = await openPostgres(database.url, { migrationUrl: database.migrationUrl });
    expect(await prepareDatabaseWhenReachable(handle, () => false)).toBe(true);
  });

  afterAll(async () => {
    setCurrentDatabase(undefined);
    await handle?.close();
    await database?.drop();
  });

  /** The SQLSTATE a statement of the server's role fails with, or "ok". */
  const outcome = (run: (db: Database) => Promise<unknown>) =>
    run(handle.db).then(
      () => "ok",
      (error: Error & { cause?: { code?: string; message: string } }) =>
        `${error.cause?.code ?? "?"} ${error.cause?.message ?? error.message}`,
    );

  it("the server works as its role: a sign-in writes the journal, which it reads", async () => {
    expect(await journalIsUnprotected(handle.db)).toBe(false);
    expect(await handle.asOwner(journalIsUnprotected)).toBe(true);

    const signedIn = await call(
      signInRoute.action,
      makeRequest("/auth", { form: { email: ADMIN.email, password: ADMIN.password } }),
    );
    expect(signedIn.status).toBe(302);
    const { rows } = await listJournal({}, 1, handle.db);
    expect(rows).toMatchObject([
      { action: "sign-in", actorEmail: ADMIN.email, ip: testContext.clientIp },
    ]);
    // The rest of the data as before: a contact request (its counts' trigger, mail, webhooks).
    expect((await createContactRequest(visitor(1), handle.db)).id).toBeGreaterThan(0);
  });

  it("cannot update, delete, truncate, alter or drop the journal, nor lower its retention", async () => {
    const refused = [
      sql`update audit_journal set action = 'sign-out'`,
      sql`delete from audit_journal`,
      sql`truncate audit_journal`,
      sql`alter table audit_journal disable trigger audit_journal_append_only`,
      sql`alter table audit_journal add column note text`,
      sql`drop trigger audit_journal_append_only on audit_journal`,
      sql`drop table audit_journal`,
      sql`select setval('audit_journal_id_seq', 1)`,
      sql`alter function purge_audit_journal(integer) security invoker`,
      sql`create or replace function audit_journal_retention_floor() returns integer
          language sql as 'select 0'`,
    ];
    for (const [i, statement] of refused.entries()) {
      expect(await outcome((db) => db.execute(statement)), `statement ${i}`).toMatch(/^42501 /);
    }
    // The retention's flag, set by the role itself, opens nothing: it has no DELETE.
    const flagged = await outcome((db) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('app.audit_retention', 'on', true)`);
        await tx.execute(sql`delete from audit_journal`);
      }),
    );
    expect(flagged).toMatch(/^42501 /);
    expect(flagged).not.toMatch(/append-only/);
    expect(
      await outcome((db) => db.insert(auditJournal).values({ action: "sign-out", requestId: "t" })),
    ).toBe("ok");
  });

  it("deletes through the retention function only rows past AUDIT_RETENTION_MONTHS, whatever it is asked", async () => {
    await handle.asOwner((owner) =>
      owner.insert(auditJournal).values([
        { action: "sign-in", at: sql`now() - interval '13 months'` },
        { action: "sign-in", at: sql`now() - interval '11 months'` },
      ]),
    );
    const count = async () => (await listJournal({}, 1, handle.db)).total;
    const before = await count();
    // Asked for 0 months, it still keeps 12 (the floor the migrator set).
    expect(await purgeJournal(0, handle.db)).toBe(1);
    expect(await purgeJournal(0, handle.db)).toBe(0);
    expect(await count()).toBe(before - 1);
  });

  it("grants again at each start (tables added later), backs up as the server, restores as the owner", async () => {
    // A table the server's role owns (created before the roles were split) stops the migrator
    // with what to run instead.
    await withClient(database.superuserUrl, async (c) => {
      await c.query(`create table later_table (id int)`);
      await c.query(`alter table later_table owner to ${database.roles.server}`);
    });
    await expect(handle.withStartupLock((db) => handle.migrate(db))).rejects.toThrow(
      TableOwnershipError,
    );
    await expect(handle.withStartupLock((db) => handle.migrate(db))).rejects.toThrow(
      `REASSIGN OWNED BY "${database.roles.server}" TO "${database.roles.owner}";`,
    );
    await withClient(database.superuserUrl, (c) =>
      c.query(`reassign owned by ${database.roles.server} to ${database.roles.owner}`),
    );
    await handle.withStartupLock((db) => handle.migrate(db));
    expect(await outcome((db) => db.execute(sql`insert into later_table values (1)`))).toBe("ok");
    await handle.asOwner((owner) => owner.execute(sql`drop table later_table`));

    // Servers started without the owner's URL, on a database the owner migrated beforehand
    // (npm run db:migrate): they start, and refuse to when a migration is left to apply.
    const serverOnly = await openPostgres(database.url);
    try {
      await serverOnly.withStartupLock((db) => serverOnly.migrate(db));
      const shiftLast = (by: number) =>
        handle.asOwner((owner) =>
          owner.execute(sql`update drizzle.__drizzle_migrations set created_at = created_at + ${by}
            where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`),
        );
      await shiftLast(-1);
      await expect(serverOnly.withStartupLock((db) => serverOnly.migrate(db))).rejects.toThrow(
        PendingMigrationsError,
      );
      await shiftLast(1);
    } finally {
      await serverOnly.close();
    }

    const dir = mkdtempSync(path.join(tmpdir(), "journal-roles-"));
    try {
      const file = path.join(dir, "backup.jsonl");
      const counts = await backupDatabase(handle, file);
      expect(counts.audit_journal).toBeGreaterThan(0);
      // The server's role may not empty the journal to restore it; the owner restores.
      expect(await outcome((db) => restoreDatabase(db, file, { force: true }))).toMatch(/^42501 /);
      expect(
        await handle.asOwner((owner) => restoreDatabase(owner, file, { force: true })),
      ).toEqual(counts);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
