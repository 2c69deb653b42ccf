// Applies the committed migrations without starting the server (and without loading demo data).
import { DataDirBusyError } from "../app/server/db.server";
import { startDatabase } from "../app/server/startup.server";

try {
  const handle = await startDatabase({ seed: false });
  console.log(`Migrations appliquées (${handle.kind}: ${handle.location}).`);
  await handle.close();
} catch (error) {
  console.error(error instanceof DataDirBusyError ? error.message : error);
  process.exit(1);
}
