import { rmSync } from "node:fs";
import { makeDataTemplate } from "./data-template";
import { DATA_TEMPLATE_VARIABLE } from "./server-process";

/**
 * Vitest global setup of the system tests: the migrated data directory that the launcher copies
 * into each new one (server-process.ts). The workers inherit the variable.
 */
export default async function setup() {
  const dir = await makeDataTemplate();
  process.env[DATA_TEMPLATE_VARIABLE] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
