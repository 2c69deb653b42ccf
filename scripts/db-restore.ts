// Restores a backup made by db:backup into an empty database (migrated first, no demo data):
//   npm run db:restore -- FILE [--force]     --force replaces everything the database holds
// With two roles on PostgreSQL it needs MIGRATION_DATABASE_URL: the rows are written as the owner
// (the server's role may not empty the journal or move its sequence).
import { existsSync } from "node:fs";
import { RestoreError, restoreDatabase } from "../app/platform/backup.server";
import { DataDirBusyError, openDatabase } from "../app/platform/db.server";
import { env } from "../app/platform/env.server";

const args = process.argv.slice(2).filter((a) => a !== "--");
const force = args.includes("--force");
const file = args.find((a) => !a.startsWith("--"));

if (!file || !existsSync(file)) {
  console.error(
    "Usage : npm run db:restore -- FICHIER [--force]" + (file ? ` (${file} introuvable)` : ""),
  );
  process.exit(2);
}

try {
  const e = env();
  const handle = await openDatabase({
    databaseUrl: e.DATABASE_URL,
    migrationUrl: e.MIGRATION_DATABASE_URL,
    dataDir: e.DATA_DIR,
  });
  try {
    // Under the start-up lock: an instance starting meanwhile waits, then finds the restored data
    // (and loads no demo offers, creates no administrator).
    const counts = await handle.withStartupLock(async (db) => {
      await handle.migrate(db);
      return handle.asOwner((owner) => restoreDatabase(owner, file, { force }));
    });
    const summary = Object.entries(counts)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ");
    console.log(
      `Sauvegarde restaurée (${handle.kind}: ${handle.location}) depuis ${file}\n  ${summary}`,
    );
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(
    error instanceof DataDirBusyError || error instanceof RestoreError ? error.message : error,
  );
  process.exit(1);
}
