import { statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import type { ServerBuild } from "react-router";
import {
  currentDatabase,
  DataDirBusyError,
  type DatabaseHandle,
  setCurrentDatabase,
} from "../app/server/db.server";
import { env, envWarnings } from "../app/server/env.server";
import { log } from "../app/server/log.server";
import { mailSettings, startMailNotifications, type MailWorker } from "../app/server/mail.server";
import { startPurgeSchedule } from "../app/server/retention.server";
import type { QueueWorker } from "../app/server/queue-worker.server";
import {
  openConfiguredDatabase,
  prepareDatabase,
  prepareDatabaseWhenReachable,
} from "../app/server/startup.server";
import { startWebhookWorker } from "../app/server/webhook-delivery.server";
import { answerClientErrors, createHttpApp, createRequestListener } from "./http";

async function main() {
  const e = env();
  const isProduction = e.NODE_ENV === "production" || process.argv.includes("--production");
  for (const warning of envWarnings()) log.warn(warning);
  // Checked before anything starts: SMTP_URL without NOTIFY_EMAIL stops the server.
  const mail = mailSettings();

  // Graceful stop: refuse new connections, let in-flight requests finish (bounded wait), close the
  // database, exit. A signal during start-up stops once the database is ready. Repeated signals
  // are ignored: under `npm start` in a terminal, Ctrl-C reaches the server twice (terminal, npm).
  let server: Server | undefined = undefined;
  let stopping = false;
  let mailWorker: MailWorker | null = null;
  let webhookWorker: QueueWorker | null = null;
  let stopPurge = () => {};
  const closeDatabaseAndExit = async () => {
    // The worker records the mail it is sending before the database closes.
    // Bounded: a mail cut short is sent again when its lease expires (docs/mail.md).
    const graceMs = Math.min(e.SHUTDOWN_TIMEOUT_MS, 5_000);
    await Promise.all([
      mailWorker?.stop(graceMs).catch((error: unknown) => {
        log.error("error while stopping the mail worker", { error });
      }),
      // A delivery cut short is sent again when its lease expires (docs/webhooks.md).
      webhookWorker?.stop(graceMs).catch((error: unknown) => {
        log.error("error while stopping the webhook worker", { error });
      }),
    ]);
    try {
      await currentDatabase().close();
      log.info("database closed");
    } catch (error) {
      log.error("error while closing the database", { error });
    }
    process.exit(0);
  };
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    stopPurge();
    log.info("shutting down", { signal });
    const graceMs = e.SHUTDOWN_TIMEOUT_MS;
    // Last resort if start-up or closing the database hangs.
    setTimeout(() => {
      log.error("shutdown did not complete; exiting");
      process.exit(1);
    }, graceMs + 10_000).unref();
    if (!server) return;
    const force = setTimeout(() => {
      log.warn("in-flight requests did not finish in time; closing anyway", { graceMs });
      server?.closeAllConnections();
    }, graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      void closeDatabaseAndExit();
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  // The embedded database is ready before the server listens (a failure there is final). A
  // PostgreSQL server may be unreachable at start: the HTTP server listens at once and answers 503
  // (server/http.ts) while the start is retried (prepareDatabaseWhenReachable).
  const handle = await openConfiguredDatabase();
  if (handle.kind === "pglite") {
    try {
      await prepareDatabase(handle);
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
    setCurrentDatabase(handle);
    log.info("database ready", { kind: handle.kind, location: handle.location });
    if (e.NODE_ENV === "production") {
      log.warn(
        "embedded database (PGlite) in production: it survives a killed process but not an OS crash or power loss (no fsync); use PostgreSQL via DATABASE_URL",
      );
    }
  } else {
    setCurrentDatabase(handle, { ready: false });
  }
  if (stopping) return closeDatabaseAndExit();
  const startWorkers = (ready: DatabaseHandle) => {
    mailWorker = startMailNotifications(ready, mail, { listenUrl: e.DATABASE_URL });
    webhookWorker = startWebhookWorker(ready, { listenUrl: e.DATABASE_URL });
    // Retention of contact requests (issue 12): once a day across instances.
    stopPurge = startPurgeSchedule();
  };
  if (handle.kind === "pglite") startWorkers(handle);

  let listener;
  if (isProduction) {
    const buildPath = path.resolve("build/server/index.js");
    const build = (await import(buildPath)) as ServerBuild;
    listener = createRequestListener({
      build,
      clientDir: path.resolve("build/client"),
      buildTime: statSync(buildPath).mtime,
    });
  } else {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true } });
    listener = createHttpApp({
      build: () =>
        devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
      viteMiddleware: devServer.middlewares,
    });
  }

  if (stopping) return closeDatabaseAndExit();
  const listening: Server = createServer(listener).listen(e.PORT, e.HOST, () => {
    const address = listening.address();
    const port = typeof address === "object" && address ? address.port : e.PORT;
    log.info("server listening", {
      url: `http://localhost:${port}`,
      mode: isProduction ? "production" : "development",
    });
  });
  listening.keepAliveTimeout = 65_000;
  answerClientErrors(listening);
  server = listening;

  if (handle.kind === "postgres" && (await prepareDatabaseWhenReachable(handle, () => stopping))) {
    if (!stopping) startWorkers(handle);
  }
}

main().catch((error: unknown) => {
  if (error instanceof DataDirBusyError) {
    console.error(error.message);
  } else {
    log.error("server failed to start", { error });
  }
  process.exit(1);
});
