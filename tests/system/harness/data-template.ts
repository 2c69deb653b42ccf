import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPglite } from "../../../app/platform/db.server";

/**
 * One embedded data directory, created and migrated, in a new temporary directory: the system
 * tests and the browser suite's servers start from copies of it instead of running initdb and
 * every migration each (a first start took 6.8 s, a restart 2.6 s).
 */
export async function makeDataTemplate(
  dir = mkdtempSync(path.join(tmpdir(), "system-data-template-")),
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const handle = await openPglite(dir);
  await handle.migrate(handle.db);
  await handle.close();
  return dir;
}
