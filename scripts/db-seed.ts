// Reloads the demo offers (upsert by slug): contact requests and other offers are kept.
import { DataDirBusyError } from "../app/platform/db.server";
import { loadDemoOffers } from "../app/features/setup/seed.server";
import { startDatabase } from "../app/features/setup/startup.server";

try {
  const handle = await startDatabase({ seed: false, initialAdmin: false, lockWaitMs: 0 });
  const n = await loadDemoOffers(handle.db);
  console.log(`${n} offres de démonstration chargées (${handle.kind}: ${handle.location}).`);
  await handle.close();
} catch (error) {
  console.error(error instanceof DataDirBusyError ? error.message : error);
  process.exit(1);
}
