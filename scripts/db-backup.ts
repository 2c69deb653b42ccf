// Writes a backup of the current database (embedded or PostgreSQL) to a file (as DATABASE_URL's
// role: with two roles it may read every table and the list of applied migrations):
//   npm run db:backup                      -> backups/backup-<date>.jsonl
//   npm run db:backup -- FILE[.gz]
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { backupDatabase } from "../app/platform/backup.server";
import { DataDirBusyError, openDatabase } from "../app/platform/db.server";
import { env } from "../app/platform/env.server";

const e = env();
const args = process.argv.slice(2).filter((a) => a !== "--");
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const file = path.resolve(args[0] ?? path.join("backups", `backup-${stamp}.jsonl`));

try {
  if (!e.DATABASE_URL && !existsSync(path.join(e.DATA_DIR, "pgdata", "PG_VERSION"))) {
    throw new Error(`Aucune base embarquée dans ${path.resolve(e.DATA_DIR)} (DATA_DIR).`);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const handle = await openDatabase({ databaseUrl: e.DATABASE_URL, dataDir: e.DATA_DIR });
  try {
    const counts = await backupDatabase(handle, file);
    const summary = Object.entries(counts)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ");
    console.log(`Sauvegarde écrite (${handle.kind}: ${handle.location}) : ${file}\n  ${summary}`);
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(error instanceof DataDirBusyError ? error.message : error);
  process.exit(1);
}
