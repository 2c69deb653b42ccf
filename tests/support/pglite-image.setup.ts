import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { openPglite } from "../../app/server/db.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated, empty embedded database (dumpDataDir tarball) each test file starts from. */
    pgliteImage: string;
  }
}

/**
 * Vitest global setup: creates and migrates one embedded database and saves its image, so that
 * each integration file loads a copy instead of running initdb and every migration again.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === "postgres") {
    project.provide("pgliteImage", "");
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), "pglite-image-"));
  const file = path.join(dir, "migrated.tar");
  const handle = await openPglite();
  await handle.migrate(handle.db);
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const image = await client.dumpDataDir("none");
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  await handle.close();
  project.provide("pgliteImage", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
