// Restores a backup made by db:backup into an empty database (migrated first, no demo data):
//   npm run db:restore -- FILE [--force]     --force replaces everything the database holds
import { existsSync } from "node:fs";
import { RestoreError, restoreDatabase } from "../app/server/backup.server";
import { DataDirBusyError } from "../app/server/db.server";
import { startDatabase } from "../app/server/startup.server";

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
  const handle = await startDatabase({ seed: false });
  try {
    const counts = await restoreDatabase(handle, file, { force });
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
