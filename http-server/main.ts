import { statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import type { ServerBuild } from "react-router";
import {
  currentDatabase,
  DataDirBusyError,
  type DatabaseHandle,
  setCurrentDatabase,
} from "../app/platform/db.server";
import { env, envWarnings } from "../app/platform/env.server";
import { log } from "../app/platform/log.server";
import { startMailNotifications, type MailWorker } from "../app/features/mail/mail.server";
import { mailRenderers } from "../app/mail-kinds.server";
import {
  mailboxSettings,
  startMailboxReader,
  type MailboxReader,
} from "../app/features/conversation/mailbox.server";
import { mailSettings } from "../app/features/mail/mail-settings.server";
import { startPurgeSchedule } from "../app/features/privacy/retention.server";
import { startFollowUpSchedule } from "../app/features/follow-ups/follow-ups.server";
import type { QueueWorker } from "../app/platform/durable-queue.server";
import {
  openConfiguredDatabase,
  prepareDatabase,
  prepareDatabaseWhenReachable,
} from "../app/features/setup/startup.server";
import { startWebhookWorker } from "../app/features/webhooks/webhook-delivery.server";
import { beginDraining } from "./draining";
import { answerClientErrors, createHttpApp, createRequestListener } from "./http";

async function main() {
  const e = env();
  const isProduction = e.NODE_ENV === "production" || process.argv.includes("--production");
  for (const warning of envWarnings()) log.warn(warning);
  // Checked before anything starts: SMTP_URL without NOTIFY_EMAIL stops the server.
  const mail = mailSettings();

  // Graceful stop (docs/production.md, "Rolling restarts"), all within SHUTDOWN_TIMEOUT_SECONDS:
  // readiness (/healthz) turns 503 and the listener closes at once (a proxy sends new requests to
  // the other instance); requests in flight finish, each answer closing its connection, and are
  // cut a second before the deadline; meanwhile the workers stop claiming and give back what they
  // hold; then the database closes and the process exits 0. A signal during start-up stops once
  // the database is ready. Repeated signals are ignored: under `npm start` in a terminal, Ctrl-C
  // reaches the server twice (terminal, npm).
  let server: Server | undefined = undefined;
  let stopping = false;
  let mailWorker: MailWorker | null = null;
  let webhookWorker: QueueWorker | null = null;
  let mailboxReader: MailboxReader | null = null;
  let stopPurge = () => {};
  let stopFollowUps = () => {};
  const deadlineMs = e.SHUTDOWN_TIMEOUT_SECONDS * 1000;
  // Requests in flight are cut here, leaving time to record the workers' claims and close the database.
  const requestsCutMs = Math.max(deadlineMs - 1_000, deadlineMs / 2);
  let workersStopped: Promise<unknown> | undefined;
  const stopWorkers = () => {
    // The mail being sent and the delivery being posted finish (bounded); what is not done by
    // then is given back for another instance (docs/mail.md, docs/webhooks.md).
    const graceMs = Math.min(requestsCutMs, 5_000);
    workersStopped ??= Promise.all([
      mailWorker?.stop(graceMs).catch((error: unknown) => {
        log.error("error while stopping the mail worker", { error });
      }),
      webhookWorker?.stop(graceMs).catch((error: unknown) => {
        log.error("error while stopping the webhook worker", { error });
      }),
      // A read under way finishes: what it stored is stored once (incoming.server.ts).
      mailboxReader?.stop().catch((error: unknown) => {
        log.error("error while stopping the mailbox reader", { error });
      }),
    ]);
    return workersStopped;
  };
  const closeDatabaseAndExit = async () => {
    await stopWorkers();
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
    stopFollowUps();
    log.info("shutting down", { signal, timeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS });
    // Last resort if closing the database hangs (a second at least: 0 cuts the requests at once,
    // yet lets the database close). A start is let finish first: creating the embedded database
    // takes seconds, far more on a busy machine (it is made aside and renamed: never half-made).
    setTimeout(
      () => {
        log.error("shutdown did not complete in time; exiting");
        process.exit(1);
      },
      server ? Math.max(deadlineMs, 1_000) : deadlineMs + 60_000,
    ).unref();
    void stopWorkers();
    if (!server) {
      beginDraining(undefined, () => {});
      return;
    }
    const listening = server;
    const cut = setTimeout(() => {
      log.warn("in-flight requests did not finish in time; closing anyway", {
        timeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
      });
      listening.closeAllConnections();
    }, requestsCutMs);
    cut.unref();
    beginDraining(listening, () => {
      clearTimeout(cut);
      void closeDatabaseAndExit();
    });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  // The embedded database is ready before the server listens (a failure there is final). A
  // PostgreSQL server may be unreachable at start: the HTTP server listens at once and answers 503
  // (http-server/http.ts) while the start is retried (prepareDatabaseWhenReachable).
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
    mailWorker = startMailNotifications(ready, mail, mailRenderers, {
      listenUrl: e.DATABASE_URL,
    });
    webhookWorker = startWebhookWorker(ready, { listenUrl: e.DATABASE_URL });
    // The buyers' replies (issue 40), when a mailbox is configured.
    const mailbox = mailboxSettings();
    if (mailbox) mailboxReader = startMailboxReader(ready, mailbox);
    // Retention of contact requests (issue 12): once a day across instances.
    stopPurge = startPurgeSchedule();
    // Follow-ups (issue 40): late requests, quotes expiring, morning digests; each queued once.
    stopFollowUps = startFollowUpSchedule();
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
  const handler = listener;
  const listen = () => {
    if (server || stopping) return;
    const listening: Server = createServer(handler).listen(e.PORT, e.HOST, () => {
      const address = listening.address();
      const port = typeof address === "object" && address ? address.port : e.PORT;
      log.info("server listening", {
        url: `http://localhost:${port}`,
        mode: isProduction ? "production" : "development",
      });
    });
    // Longer than a proxy's own keep-alive timeout (nginx: 60 s), so that the proxy closes an
    // idle connection first and never sends a request on one this side is closing.
    listening.keepAliveTimeout = 65_000;
    answerClientErrors(listening);
    server = listening;
  };
  if (handle.kind === "pglite") {
    listen();
    return;
  }
  // PostgreSQL: listens once the database is ready (a restarted instance takes no request it
  // would answer 503 to), or at the first failed attempt to reach it, to answer 503 (http-server/http.ts)
  // while the attempts go on.
  const ready = await prepareDatabaseWhenReachable(handle, () => stopping, listen);
  if (ready && !stopping) {
    listen();
    startWorkers(handle);
  }
  if (stopping && !server) await closeDatabaseAndExit();
}

main().catch((error: unknown) => {
  if (error instanceof DataDirBusyError) {
    console.error(error.message);
  } else {
    log.error("server failed to start", { error });
  }
  process.exit(1);
});
