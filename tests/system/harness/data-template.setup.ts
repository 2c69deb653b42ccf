import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPglite } from "../../../app/server/db.server";

/**
 * Vitest global setup of the system tests: one embedded data directory, created and migrated
 * once, that the launcher copies into each new one (server-process.ts). The workers inherit the
 * variable.
 */
export default async function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "system-data-template-"));
  const handle = await openPglite(dir);
  await handle.migrate(handle.db);
  await handle.close();
  process.env.SYSTEM_TEST_DATA_TEMPLATE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
