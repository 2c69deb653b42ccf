import { existsSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { seedIfEmpty } from "../../../app/features/setup/seed.server";
import { openTestDatabase, type OpenTestDatabase } from "../../support/database";
import { findFreePort } from "./ports";

/** A migrated embedded database's image (data-template.setup.ts), loaded instead of initdb and migrations. */
export const APP_SERVER_IMAGE_VARIABLE = "SYSTEM_TEST_PGLITE_IMAGE";

export type AppServer = {
  baseUrl: string;
  database: OpenTestDatabase;
  close(): Promise<void>;
};

/**
 * The one in-process launcher: the built application (build/server) in this process behind our
 * real Express app, on a real port, over a fresh migrated database with the demo offers
 * (in-memory PGlite, or a new database on PostgreSQL with TEST_DB=postgres). The test reads the same database to check what changed.
 * Environment variables are read once per process: pass them here, before anything else loads.
 */
export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  const buildPath = path.resolve("build/server/index.js");
  if (!existsSync(buildPath))
    throw new Error("build/server/index.js is missing: run npm run build");
  // The port is chosen first: SITE_URL (read once) must name it.
  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  Object.assign(process.env, {
    NODE_ENV: "production",
    LOG_LEVEL: "error",
    SITE_URL: baseUrl,
    ...env,
  });

  const image = process.env[APP_SERVER_IMAGE_VARIABLE];
  const database = await openTestDatabase({
    image: image ? new Blob([readFileSync(image)]) : undefined,
  });
  await seedIfEmpty(database.db);
  const { answerClientErrors, createHttpApp } = await import("../../../http-server/http");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const app = createHttpApp({ build, clientDir: path.resolve("build/client") });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, "127.0.0.1");
    s.once("listening", () => resolve(s));
    s.once("error", reject);
  });
  answerClientErrors(server);
  return {
    baseUrl,
    database,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await database.dispose();
    },
  };
}
