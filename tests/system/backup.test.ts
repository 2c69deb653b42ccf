import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite, type Database } from "../../app/platform/db.server";
import { contactRequests } from "../../app/platform/schema.server";
import { createPostgresDatabase, type TestDatabase, withClient } from "../support/database";
import { hasPostgres } from "./harness/use-postgres";
import { findFreePort } from "./harness/ports";
import { ROOT, startServer } from "./harness/server-process";
import { clientAddress, postContact, removeDir, tempDir } from "./support";

/**
 * Backup and restore through the npm scripts, across both kinds of database:
 * embedded -> PostgreSQL -> embedded, every offer and contact request kept exactly.
 */

const execFileAsync = promisify(execFile);

type Run = { code: number; output: string };

async function npmRun(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileAsync("npm", ["run", "-s", script, "--", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

const TABLES = ["offers", "contact_requests", "users", "sessions", "app_state"];

/** Every row of the main tables as PostgreSQL's JSON, in UTC, in a stable order. */
const SNAPSHOT_SQL = (t: string) =>
  `select coalesce(jsonb_agg(to_jsonb(x) order by to_jsonb(x)::text), '[]')::text as rows from ${t} x`;

async function snapshotPglite(dataDir: string) {
  const handle = await openPglite(dataDir);
  try {
    return await snapshotWith(handle.db);
  } finally {
    await handle.close();
  }
}

async function snapshotWith(db: Database) {
  await db.execute(sql`set time zone 'UTC'`);
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) {
    const result = (await db.execute(sql.raw(SNAPSHOT_SQL(t)))) as unknown as {
      rows: { rows: string }[];
    };
    out[t] = JSON.parse(result.rows[0].rows) as unknown[];
  }
  return out;
}

async function snapshotPostgres(url: string) {
  return withClient(url, async (c) => {
    await c.query("set time zone 'UTC'");
    const out: Record<string, unknown[]> = {};
    for (const t of TABLES) {
      const r = await c.query<{ rows: string }>(SNAPSHOT_SQL(t));
      out[t] = JSON.parse(r.rows[0].rows) as unknown[];
    }
    return out;
  });
}

const CONTACTS = [
  { name: "Élodie Martin", email: "elodie@example.fr", message: "Bonjour,\nun devis ?\n\tMerci" },
  {
    name: 'O\'Brien "Quote"',
    email: "ob@example.fr",
    message: "Emoji 🚀, backslash \\ et % _ ; -- pas de SQL",
    phone: "+33 6 12 34 56 78",
  },
  { name: "Offre liée", email: "lie@example.fr", message: "Pour l'offre 1", offer: "1" },
];

describe.skipIf(!hasPostgres)("backup and restore (npm run db:backup / db:restore)", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("round trip embedded -> PostgreSQL -> embedded keeps every row", async () => {
    const work = tempDir("backup");
    cleanups.push(() => removeDir(work));
    const source = path.join(work, "source");
    const fileA = path.join(work, "from-pglite.jsonl");
    const fileB = path.join(work, "from-postgres.jsonl.gz");

    // 1. An embedded database with the demo offers and a few contact requests.
    const server = await startServer({ port: await findFreePort(), dataDir: source }).ready();
    for (const [i, c] of CONTACTS.entries()) {
      expect(await postContact(server.base, c, clientAddress(100 + i))).toBe(200);
    }
    // The embedded directory cannot be read while its server runs: the script says so.
    const busy = await npmRun("db:backup", [fileA], { DATA_DIR: source });
    expect(busy.code).toBe(1);
    expect(busy.output).toContain("arrêtez le serveur");
    await server.stopCleanly();

    const backupA = await npmRun("db:backup", [fileA], { DATA_DIR: source });
    expect(backupA.code, backupA.output).toBe(0);
    const original = await snapshotPglite(source);
    expect(original.offers.length).toBeGreaterThan(10);
    expect(original.contact_requests).toHaveLength(CONTACTS.length);
    // The catalogue's numbers, setup fees and LOA terms (issue 13) are in it: the demo fills them,
    // and the comparisons below check that they come back unchanged.
    const bySlug = (slug: string) =>
      original.offers.find((o) => (o as { slug: string }).slug === slug);
    expect(bySlug("epyc-performance-64")).toMatchObject({
      cpu_cores: 32,
      ram_gb: 256,
      storage_tb: 7.68,
      bandwidth_gbps: 10,
      setup_fee: 49,
      loa_months: null,
    });
    expect(bySlug("loa-pme-36-mois")).toMatchObject({
      setup_fee: 0,
      loa_months: 36,
      loa_purchase_option: 195,
      priced_months: 36,
    });

    // 2. Into a new PostgreSQL database.
    const pgDb: TestDatabase = await createPostgresDatabase("restore");
    cleanups.push(() => pgDb.drop());
    const restoreA = await npmRun("db:restore", [fileA], { DATABASE_URL: pgDb.url });
    expect(restoreA.code, restoreA.output).toBe(0);
    const inPostgres = await snapshotPostgres(pgDb.url);
    const { app_state: stateA, ...restA } = inPostgres;
    const { app_state: stateOriginal, ...restOriginal } = original;
    expect(restA).toEqual(restOriginal);
    // The catalogue version moved forward (instances drop their caches).
    expect(stateA.length).toBeGreaterThanOrEqual(stateOriginal.length);

    // A second restore into the now non-empty database is refused.
    const again = await npmRun("db:restore", [fileA], { DATABASE_URL: pgDb.url });
    expect(again.code).toBe(1);
    expect(again.output).toContain("n'est pas vide");

    // 3. The restored database serves; new rows get fresh ids (sequences moved past the restored
    // ids). Then a backup of PostgreSQL is taken while the server runs (one consistent snapshot).
    const pgServer = await startServer({
      port: await findFreePort(),
      databaseUrl: pgDb.url,
    }).ready();
    expect(
      await postContact(
        pgServer.base,
        { name: "Après restauration", email: "apres@example.fr", message: "nouvel identifiant" },
        clientAddress(200),
      ),
    ).toBe(200);
    const backupB = await npmRun("db:backup", [fileB], { DATABASE_URL: pgDb.url });
    expect(backupB.code, backupB.output).toBe(0);
    await pgServer.stopCleanly();
    const beforeB = await snapshotPostgres(pgDb.url);
    expect(beforeB.contact_requests).toHaveLength(CONTACTS.length + 1);

    // 4. Back into a new embedded directory, from the gzip file.
    const target = path.join(work, "target");
    const restoreB = await npmRun("db:restore", [fileB], { DATA_DIR: target });
    expect(restoreB.code, restoreB.output).toBe(0);
    const inPglite = await snapshotPglite(target);
    const { app_state: _s1, ...restB } = inPglite;
    const { app_state: _s2, ...restBeforeB } = beforeB;
    expect(restB).toEqual(restBeforeB);

    const handle = await openPglite(target);
    try {
      const [row] = await handle.db
        .insert(contactRequests)
        .values({ name: "Id", email: "id@example.fr", message: "sequence" })
        .returning({ id: contactRequests.id });
      const maxId = Math.max(...beforeB.contact_requests.map((r) => (r as { id: number }).id));
      expect(row.id).toBe(maxId + 1);
    } finally {
      await handle.close();
    }

    console.log(
      `backup round trip pglite -> postgres -> pglite: ${restB.offers.length} offers, ` +
        `${restB.contact_requests.length} contact requests, ${restB.users.length} users: identical`,
    );
  });
});
