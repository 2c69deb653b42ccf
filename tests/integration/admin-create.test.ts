import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite } from "../../app/platform/db.server";
import { sessions, users } from "../../app/platform/schema.server";
import { verifyPassword } from "../../app/features/accounts/password.server";
import { testDatabaseKind } from "../support/database";
import { migratedDataDir, useTestDatabase } from "../support/use-test-database";
import { createAdmin, sessionCookieFor } from "../support/admin";
import { runScript } from "../support/scripts";

/** `npm run admin:create -- ...args`, the way the README says. */
function adminCreate(args: string[], env: Record<string, string>) {
  return runScript("admin-create", args, env);
}

let workDir: string;

// Each case starts the script as a process (tsx, then a new embedded database on the fresh
// directories): the default 30 s is too short on a busy 2-core machine.
describe("npm run admin:create", { timeout: 120_000 }, () => {
  beforeAll(() => {
    workDir = mkdtempSync(path.join(tmpdir(), "admin-create-"));
  });
  afterAll(() => {
    rmSync(workDir, { recursive: true, force: true });
  });

  // The embedded-database cases run in the default (PGlite) pass; the PostgreSQL pass runs its own.
  const embedded = testDatabaseKind === "pglite" ? it : it.skip;

  it("explains a bad e-mail or a short password, without touching any data", async () => {
    const dataDir = path.join(workDir, "untouched");
    const badEmail = await adminCreate(
      ["--email", "not-an-email", "--password", "long enough pass"],
      {
        DATA_DIR: dataDir,
      },
    );
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toContain("L'adresse e-mail n'est pas valide.");
    expect(badEmail.stderr).toContain("Usage : npm run admin:create -- --email");
    const shortPassword = await adminCreate(["--email", "a@example.fr", "--password", "short"], {
      DATA_DIR: dataDir,
    });
    expect(shortPassword.code).toBe(1);
    expect(shortPassword.stderr).toContain("au moins 12 caractères");
    const missing = await adminCreate([], { DATA_DIR: dataDir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("L'adresse e-mail est obligatoire.");
    expect(existsSync(dataDir)).toBe(false);
  });

  embedded(
    "creates then resets an administrator on a fresh, never-started data directory",
    async () => {
      const dataDir = path.join(workDir, "fresh");
      const created = await adminCreate(
        ["--email", "Chef@Example.fr", "--password", "first password 1"],
        { DATA_DIR: dataDir },
      );
      expect(created.stderr).toBe("");
      expect(created.code).toBe(0);
      expect(created.stdout).toContain("Administrateur créé : chef@example.fr");
      const reset = await adminCreate(
        ["--email", "chef@example.fr", "--password", "second password 2"],
        { DATA_DIR: dataDir },
      );
      expect(reset.code).toBe(0);
      expect(reset.stdout).toContain("Mot de passe réinitialisé pour chef@example.fr");

      const handle = await openPglite(dataDir);
      try {
        const rows = await handle.db.select().from(users);
        expect(rows.map((u) => u.email)).toEqual(["chef@example.fr"]);
        expect(await verifyPassword(rows[0].passwordHash, "second password 2")).toBe(true);
        expect(await verifyPassword(rows[0].passwordHash, "first password 1")).toBe(false);
      } finally {
        await handle.close();
      }
    },
  );

  embedded(
    "stops at once with a clear message when a running server holds the data directory",
    async () => {
      const dataDir = path.join(workDir, "busy");
      await migratedDataDir(dataDir);
      const handle = await openPglite(dataDir); // this test process plays the running server
      try {
        const before = readdirSync(path.join(dataDir, "pgdata")).sort();
        const started = Date.now();
        const result = await adminCreate(
          ["--email", "a@example.fr", "--password", "long enough pass"],
          { DATA_DIR: dataDir },
        );
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(
          `est déjà ouvert par un autre processus (pid ${process.pid})`,
        );
        expect(result.stderr).toContain("arrêtez le serveur");
        expect(result.stderr).toContain("stop the server first");
        expect(Date.now() - started).toBeLessThan(30_000);
        expect(readdirSync(path.join(dataDir, "pgdata")).sort()).toEqual(before);
        // The holder's database is intact and still usable.
        expect(await handle.db.execute(sql`select 1 as one`)).toMatchObject({ rows: [{ one: 1 }] });
      } finally {
        await handle.close();
      }
    },
  );

  describe.runIf(testDatabaseKind === "postgres")("on PostgreSQL (DATABASE_URL)", () => {
    const database = useTestDatabase();

    it("resets the password of an existing administrator and ends its sessions", async () => {
      const admin = await createAdmin(database.db);
      await sessionCookieFor(admin.id, database.db);
      const result = await adminCreate(
        ["--email", "admin@example.fr", "--password", "third password 3"],
        { DATABASE_URL: database.databaseUrl! },
      );
      expect(result.code).toBe(0);
      const [row] = await database.db.select().from(users).where(eq(users.id, admin.id));
      expect(await verifyPassword(row.passwordHash, "third password 3")).toBe(true);
      expect(await database.db.select().from(sessions)).toEqual([]);
    });
  });
});
