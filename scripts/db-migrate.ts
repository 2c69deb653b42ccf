// Applies the committed migrations without starting the server: no demo data, no administrator.
// Safe while servers run on PostgreSQL (same lock as their start-up); for the embedded database,
// stop the server first (one process per directory). With MIGRATION_DATABASE_URL, as that role,
// then grants DATABASE_URL's role what the server needs (docs/production.md).
import { DataDirBusyError, openDatabase } from "../app/platform/db.server";
import { env } from "../app/platform/env.server";

try {
  const e = env();
  const handle = await openDatabase({
    databaseUrl: e.DATABASE_URL,
    migrationUrl: e.MIGRATION_DATABASE_URL,
    dataDir: e.DATA_DIR,
  });
  try {
    await handle.withStartupLock((db) => handle.migrate(db));
    console.log(`Migrations appliquées (${handle.kind}: ${handle.location}).`);
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(error instanceof DataDirBusyError ? error.message : error);
  process.exit(1);
}
