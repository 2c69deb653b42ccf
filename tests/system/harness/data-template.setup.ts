import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { openPglite } from "../../../app/platform/db.server";
import { APP_SERVER_IMAGE_VARIABLE } from "./app-server";
import { makeDataTemplate } from "./data-template";
import { DATA_TEMPLATE_VARIABLE } from "./server-process";

/**
 * Vitest global setup of the system tests: the migrated data directory that the launcher copies
 * into each new one (server-process.ts), and its image (dumpDataDir) that the in-process server's
 * in-memory database loads (app-server.ts). The workers inherit both variables.
 */
export default async function setup() {
  const dir = await makeDataTemplate();
  const image = path.join(dir, "migrated.tar");
  const handle = await openPglite(dir);
  try {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    writeFileSync(image, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
  } finally {
    await handle.close();
  }
  process.env[DATA_TEMPLATE_VARIABLE] = dir;
  process.env[APP_SERVER_IMAGE_VARIABLE] = image;
  return () => rmSync(dir, { recursive: true, force: true });
}
