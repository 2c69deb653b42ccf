import { rmSync } from "node:fs";
import { z } from "zod";
import { makeDataTemplate } from "../system/harness/data-template";
import {
  DATA_TEMPLATE_VARIABLE,
  startServer,
  type ServerProcess,
} from "../system/harness/server-process";

/**
 * The browser suite's built servers (`E2E_SERVERS`, set by playwright.config.ts), started side by
 * side from one migrated data directory: Playwright starts its `webServer` entries one after the
 * other, each running initdb and every migration (about 22 s before the first test). The directory
 * stays for the run (the next run replaces it): specs' own servers copy it as well. Prints
 * `E2E_SERVERS_READY` once all answer; Playwright ends the process group at the end of the run.
 */
const servers = z
  .array(
    z.object({
      port: z.number().int(),
      dataDir: z.string(),
      env: z.record(z.string(), z.string()),
    }),
  )
  .parse(JSON.parse(process.env.E2E_SERVERS ?? "[]"));

const running: ServerProcess[] = [];
try {
  // At the path playwright.config.ts gives (E2E_DATA_TEMPLATE): kept for the run, the servers that
  // specs start in their workers (password-reset, quote-answer) copy it too.
  const template = process.env[DATA_TEMPLATE_VARIABLE];
  if (!template) throw new Error(`${DATA_TEMPLATE_VARIABLE} is not set (playwright.config.ts)`);
  rmSync(template, { recursive: true, force: true });
  await makeDataTemplate(template);
  for (const { port, dataDir, env } of servers) {
    rmSync(dataDir, { recursive: true, force: true });
    // As production runs: no proxy in front (the launcher's default lets tests pose as clients).
    const server = startServer({ port, dataDir, env: { ...env, TRUST_PROXY: undefined } });
    server.child.stdout?.pipe(process.stderr);
    server.child.stderr?.pipe(process.stderr);
    running.push(server);
  }
  await Promise.all(running.map((server) => server.ready(590_000)));
  console.log("E2E_SERVERS_READY");
} catch (error) {
  console.error(error);
  await Promise.all(running.map((server) => server.stop("SIGKILL")));
  process.exit(1);
}
