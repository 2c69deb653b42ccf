import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPglite } from "../../app/platform/db.server";
import { purgeContactRequests, runDailyPurge } from "../../app/features/privacy/retention.server";
import {
  appState,
  contactNotes,
  contactRequests,
  contactStatusChanges,
  mailOutbox,
  rateLimits,
} from "../../app/platform/schema.server";
// Sets the test environment (SITE_URL, LOG_LEVEL) that the app's configuration needs.
import "../support/admin";
import { contactTables, countsAndRecount, insertRequest } from "../support/contacts";
import { testDatabaseKind } from "../support/database";
import { migratedDataDir, useTestDatabase } from "../support/use-test-database";
import { runScript } from "../support/scripts";

const database = useTestDatabase();

beforeEach(async () => {
  await database.db.execute(sql`truncate contact_requests restart identity cascade`);
  await database.db.delete(appState).where(eq(appState.key, "contacts_purge"));
});

const ago = (interval: string) => sql`now() - ${interval}::interval`;

/** The cases around both limits (36 months by default, 30 days for suspected spam). */
async function seed() {
  const db = database.db;
  return {
    // 37 months without activity: gone, with its notes, history and mail.
    old: await insertRequest(db, {
      name: "Ancien",
      email: "ancien@example.fr",
      createdAt: ago("37 months"),
      notes: [{ body: "Rappelé", at: ago("37 months") }],
      statusChanges: 2,
      mails: 1,
    }),
    // Created 37 months ago, but a note last month made it active again: kept.
    revived: await insertRequest(db, {
      name: "Relancé",
      email: "relance@example.fr",
      createdAt: ago("37 months"),
      updatedAt: ago("1 month"),
      notes: [{ body: "Relance le mois dernier", at: ago("1 month") }],
      mails: 1,
    }),
    // Either side of the 36-month line.
    justPast: await insertRequest(db, {
      name: "Juste passé",
      email: "passe@example.fr",
      createdAt: ago("36 months 1 day"),
    }),
    justWithin: await insertRequest(db, {
      name: "Juste dedans",
      email: "dedans@example.fr",
      createdAt: ago("35 months 29 days"),
    }),
    recent: await insertRequest(db, { name: "Récent", email: "recent@example.fr" }),
    // Suspected spam: 30 days after its last activity.
    oldSpam: await insertRequest(db, {
      name: "Spam ancien",
      email: "spam1@example.fr",
      spam: true,
      createdAt: ago("31 days"),
      mails: 0,
    }),
    veryOldSpam: await insertRequest(db, {
      name: "Spam très ancien",
      email: "spam2@example.fr",
      spam: true,
      createdAt: ago("40 months"),
    }),
    freshSpam: await insertRequest(db, {
      name: "Spam récent",
      email: "spam3@example.fr",
      spam: true,
      createdAt: ago("29 days"),
    }),
  };
}

async function remainingIds() {
  const rows = await database.db.select({ id: contactRequests.id }).from(contactRequests);
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

describe(`retention purge (${testDatabaseKind})`, () => {
  it("a dry run counts what the purge deletes and changes nothing", async () => {
    await seed();
    const before = await contactTables(database.db);
    const dry = await purgeContactRequests({ dryRun: true }, database.db);
    expect(dry).toEqual({
      retentionMonths: 36,
      dryRun: true,
      expired: {
        requests: 2,
        notes: 1,
        statusChanges: 2,
        mails: 1,
        quotes: 0,
        messages: 0,
        documents: 0,
      },
      spam: {
        requests: 2,
        notes: 0,
        statusChanges: 0,
        mails: 0,
        quotes: 0,
        messages: 0,
        documents: 0,
      },
    });
    expect(await contactTables(database.db)).toEqual(before);
  });

  it("deletes on last activity (updated_at), in batches, with everything attached", async () => {
    const ids = await seed();
    const dry = await purgeContactRequests({ dryRun: true }, database.db);
    // Batches of one: every batch is its own statement, and the totals add up.
    const result = await purgeContactRequests({ batchSize: 1 }, database.db);
    expect(result.expired).toEqual({
      requests: 2,
      notes: 1,
      statusChanges: 2,
      mails: 1,
      quotes: 0,
      messages: 0,
      documents: 0,
    });
    expect(result.spam).toEqual({
      requests: 2,
      notes: 0,
      statusChanges: 0,
      mails: 0,
      quotes: 0,
      messages: 0,
      documents: 0,
    });
    expect({ ...result, dryRun: true }).toEqual(dry);

    expect(await remainingIds()).toEqual(
      [ids.revived, ids.justWithin, ids.recent, ids.freshSpam].sort((a, b) => a - b),
    );
    // The old request's rows went with it; the revived one keeps its note and mail.
    const gone = [ids.old, ids.justPast, ids.oldSpam, ids.veryOldSpam];
    for (const table of [contactNotes, contactStatusChanges, mailOutbox]) {
      const left = await database.db
        .select()
        .from(table)
        .where(inArray(table.contactRequestId, gone));
      expect(left).toEqual([]);
    }
    const revived = await database.db
      .select({ body: contactNotes.body })
      .from(contactNotes)
      .where(eq(contactNotes.contactRequestId, ids.revived));
    expect(revived).toEqual([{ body: "Relance le mois dernier" }]);
    const { counters, recount } = await countsAndRecount(database.db);
    expect(counters).toEqual(recount);
    expect(counters).toEqual({ "status:pending": 3, spam: 1 });

    // Nothing left to purge.
    const again = await purgeContactRequests({}, database.db);
    expect(again.expired.requests + again.spam.requests).toBe(0);
  });

  it("follows RETENTION_MONTHS, counted in calendar months", async () => {
    const ids = await seed();
    const result = await purgeContactRequests({ retentionMonths: 1 }, database.db);
    // With one month, only what happened since a month ago stays (the revived request's last
    // activity was a month before it was stored, so before this purge's limit).
    expect(result.expired.requests).toBe(4);
    expect(await remainingIds()).toEqual([ids.recent, ids.freshSpam].sort((a, b) => a - b));
  });

  it("the server's daily purge runs once a day, whichever instance asks", async () => {
    await seed();
    // The contact form's per-IP counters: a window over for days goes, the current one stays.
    await database.db.delete(rateLimits);
    await database.db.insert(rateLimits).values([
      { key: "contact:192.0.2.1", count: 3, resetAt: sql`now() - interval '3 days'` },
      { key: "contact:192.0.2.2", count: 1, resetAt: sql`now() + interval '5 minutes'` },
    ]);
    const first = await runDailyPurge({}, database.db);
    expect((await database.db.select().from(rateLimits)).map((r) => r.key)).toEqual([
      "contact:192.0.2.2",
    ]);
    expect(first?.expired.requests).toBe(2);
    expect(first?.spam.requests).toBe(2);
    // The same day, another instance (or a restart) finds it done.
    await insertRequest(database.db, {
      name: "Autre",
      email: "autre@example.fr",
      createdAt: ago("40 months"),
    });
    expect(await runDailyPurge({}, database.db)).toBeUndefined();
    const [claim] = await database.db
      .select()
      .from(appState)
      .where(eq(appState.key, "contacts_purge"));
    expect(JSON.parse(claim.value)).toEqual({ expired: first?.expired, spam: first?.spam });
    // A day later it runs again.
    await database.db
      .update(appState)
      .set({ updatedAt: sql`now() - interval '1 day'` })
      .where(eq(appState.key, "contacts_purge"));
    expect((await runDailyPurge({}, database.db))?.expired.requests).toBe(1);
  });

  it("two instances asking at the same moment purge once", async () => {
    await seed();
    const results = await Promise.all([
      runDailyPurge({}, database.db),
      runDailyPurge({}, database.db),
    ]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
  });
});

/** `npm run contacts:purge -- ...args`, the way the README says. */
function purgeCommand(args: string[], env: Record<string, string>) {
  return runScript("contacts-purge", args, env, 60_000);
}

// The script runs as a process (tsx first): more than the default 30 s on a busy machine.
describe(`npm run contacts:purge (${testDatabaseKind})`, { timeout: 120_000 }, () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(path.join(tmpdir(), "contacts-purge-"));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it("refuses bad arguments", async () => {
    const run = await purgeCommand(["--force"], { DATA_DIR: path.join(workDir, "unused") });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Usage : npm run contacts:purge [-- --dry-run]");
  });

  if (testDatabaseKind === "postgres") {
    it("runs beside a live server on PostgreSQL: --dry-run, then the purge", async () => {
      await seed();
      const env = { DATABASE_URL: database.databaseUrl! };
      const dry = await purgeCommand(["--dry-run"], env);
      expect(dry.stderr).toBe("");
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain("Conservation : 36 mois (3 ans)");
      expect(dry.stdout).toContain(
        "À supprimer (simulation, rien n'est supprimé) — demandes expirées : 2 demande(s), 1 note(s), 2 changement(s) de statut, 1 e-mail(s), 0 devis",
      );
      expect(await remainingIds()).toHaveLength(8);
      const run = await purgeCommand([], env);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        "Supprimé — demandes expirées : 2 demande(s), 1 note(s), 2 changement(s) de statut, 1 e-mail(s), 0 devis",
      );
      expect(run.stdout).toContain("Supprimé — spam présumé : 2 demande(s)");
      expect(await remainingIds()).toHaveLength(4);
    }, 120_000);
  } else {
    it("refuses politely while a server holds the embedded data directory, then runs", async () => {
      const dataDir = path.join(workDir, "data");
      await migratedDataDir(dataDir);
      const server = await openPglite(dataDir);
      await server.migrate(server.db);
      await insertRequest(server.db, {
        name: "Ancien",
        email: "ancien@example.fr",
        createdAt: ago("37 months"),
      });
      const busy = await purgeCommand([], { DATA_DIR: dataDir, RETENTION_MONTHS: "36" });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain("arrêtez le serveur puis relancez la commande");
      expect(await server.db.select().from(contactRequests)).toHaveLength(1);
      await server.close();

      const dry = await purgeCommand(["--dry-run"], { DATA_DIR: dataDir, RETENTION_MONTHS: "24" });
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain("Conservation : 24 mois (2 ans)");
      expect(dry.stdout).toContain("demandes expirées : 1 demande(s)");
      const run = await purgeCommand([], { DATA_DIR: dataDir });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Supprimé — demandes expirées : 1 demande(s)");
      const after = await openPglite(dataDir);
      try {
        expect(await after.db.select().from(contactRequests)).toEqual([]);
      } finally {
        await after.close();
      }
    }, 180_000);
  }
});
