import { readdirSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, type TestDatabase, withClient } from "../support/database";
import { hasPostgres } from "./harness/use-postgres";
import { findFreePort } from "./harness/ports";
import { startServer } from "./harness/server-process";
import { removeDir, sleep, tempDir } from "./support";

/**
 * Graceful shutdown on SIGTERM and SIGINT: new connections refused, in-flight requests finished
 * (bounded wait), database closed; and a PostgreSQL server that drops the app's connections does
 * not crash it.
 */

const PGLITE_WARNING =
  "embedded database (PGlite) in production: it survives a killed process but not an OS crash or power loss (no fsync); use PostgreSQL via DATABASE_URL";

/** Sends the head and the first half of a contact form post; returns the socket and the rest. */
function startSlowPost(port: number, message: string) {
  const body = new URLSearchParams({
    name: "Client lent",
    email: "lent@example.fr",
    phone: "",
    offer: "general",
    message,
  }).toString();
  const socket: Socket = connect(port, "127.0.0.1");
  let response = "";
  socket.on("data", (chunk) => (response += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("error", () => {});
  socket.write(
    `POST /contact HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/html\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n` +
      `X-Forwarded-For: 10.9.9.9\r\n\r\n` +
      body.slice(0, 20),
  );
  return {
    finish: () => socket.write(body.slice(20)),
    closed,
    response: () => response,
  };
}

/** A request whose head is sent up to its last line: in flight, not idle, until finish(). */
function startSlowGet(port: number, path: string) {
  const socket: Socket = connect(port, "127.0.0.1");
  let response = "";
  socket.on("data", (chunk) => (response += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("error", () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
  return { finish: () => socket.write("\r\n"), closed, response: () => response };
}

async function refusesConnections(base: string): Promise<boolean> {
  try {
    await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return false;
  } catch {
    return true;
  }
}

describe("graceful shutdown", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  let database: TestDatabase | undefined;
  const databaseUrl = async () => {
    if (!database) {
      database = await createPostgresDatabase("shutdown");
      cleanups.push(() => database!.drop());
    }
    return database.url;
  };

  it.skipIf(!hasPostgres)(
    "SIGTERM: readiness 503 at once, an in-flight request completes and closes its connection, then the server closes the database and exits 0",
    async () => {
      const url = await databaseUrl();
      const server = await startServer({ port: await findFreePort(), databaseUrl: url }).ready();
      const slow = startSlowPost(server.options.port, "shutdown in-flight");
      const health = startSlowGet(server.options.port, "/healthz");
      await sleep(300);
      // Answered once the server has read what was sent before (a busy server may read late).
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
      server.child.kill("SIGTERM");
      while (!server.output.includes("shutting down")) await sleep(10);
      expect(await refusesConnections(server.base)).toBe(true);
      // Readiness: a health check that was on its way is told the instance is stopping.
      health.finish();
      await health.closed;
      expect(health.response()).toMatch(/^HTTP\/1\.1 503 /);
      expect(health.response()).toMatch(/\r\nconnection: close\r\n/i);
      expect(health.response()).toContain('{"status":"stopping"}');
      expect(server.running).toBe(true); // still waiting for the post
      slow.finish();
      await slow.closed;
      // Post/redirect/get: the stored request answers 303 to its confirmation, and closes its
      // connection (a proxy sends nothing more on it): the server does not wait for it to idle out.
      expect(slow.response()).toMatch(/^HTTP\/1\.1 303 /);
      expect(slow.response()).toMatch(/\r\nlocation: \/contact\/merci\?ref=DEM-\d{4}-\d{5}\r\n/i);
      expect(slow.response()).toMatch(/\r\nconnection: close\r\n/i);
      const exit = await server.exited;
      expect(exit.code).toBe(0);
      expect(server.logLines("database closed")).toHaveLength(1);
      const stored = await withClient(
        url,
        async (c) =>
          (await c.query("select 1 from contact_requests where message = 'shutdown in-flight'"))
            .rowCount,
      );
      expect(stored).toBe(1);
    },
  );

  it.skipIf(!hasPostgres)(
    "SIGINT: a request that never completes is cut a second before SHUTDOWN_TIMEOUT_SECONDS",
    async () => {
      const url = await databaseUrl();
      const server = await startServer({
        port: await findFreePort(),
        databaseUrl: url,
        // The old name, in milliseconds: still read, with a warning.
        env: { SHUTDOWN_TIMEOUT_MS: "2000" },
      }).ready();
      expect(
        server.logLines(
          "SHUTDOWN_TIMEOUT_MS is deprecated and will be ignored in the next release: use SHUTDOWN_TIMEOUT_SECONDS (in seconds)",
        ),
      ).toHaveLength(1);
      // An idle keep-alive connection must not delay the exit either.
      await fetch(`${server.base}/healthz`, { keepalive: true });
      const stuck = startSlowPost(server.options.port, "never finished");
      await sleep(300);
      const t0 = Date.now();
      server.child.kill("SIGINT");
      const exit = await server.exited;
      const elapsed = Date.now() - t0;
      console.log(`shutdown with a stuck request: exit ${exit.code} after ${elapsed} ms`);
      expect(exit.code).toBe(0);
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(6_000);
      expect(
        server.logLines("in-flight requests did not finish in time; closing anyway"),
      ).toHaveLength(1);
      expect(server.logLines("database closed")).toHaveLength(1);
      await stuck.closed;
    },
  );

  it.skipIf(!hasPostgres)(
    "PostgreSQL drops the server's connections: it logs, reconnects and keeps serving",
    async () => {
      const url = await databaseUrl();
      const server = await startServer({ port: await findFreePort(), databaseUrl: url }).ready();
      for (let i = 0; i < 5; i++) expect((await fetch(`${server.base}/offers`)).status).toBe(200);
      const name = new URL(url).pathname.slice(1);
      const killed = await withClient(url, async (c) => {
        const r = await c.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [name],
        );
        return r.rowCount;
      });
      expect(killed).toBeGreaterThan(0);
      await sleep(300);
      expect(server.running).toBe(true);
      expect(server.logLines("database pool error").length).toBeGreaterThan(0);
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.base}/offers`)).status).toBe(200);
      await server.stopCleanly();
    },
  );

  it("embedded database: SIGTERM during start-up waits for it, then closes PGlite cleanly", async () => {
    const dataDir = tempDir("shutdown-pglite");
    cleanups.push(async () => removeDir(dataDir));
    const server = startServer({ port: await findFreePort(), dataDir, freshDatabase: true });
    while (server.running && !server.output.includes("creating the embedded database")) {
      await sleep(5);
    }
    const exit = await server.stop("SIGTERM", 120_000); // start-up finishes first: slow on a loaded machine
    expect(exit.code, server.output).toBe(0);
    expect(server.logLines("server listening")).toHaveLength(0);
    expect(server.logLines("database closed")).toHaveLength(1);
    expect(readdirSync(dataDir)).toEqual(["pgdata"]); // lock released

    const again = await startServer({
      port: await findFreePort(),
      dataDir,
      freshDatabase: true,
    }).ready();
    expect(again.logLines("creating the embedded database")).toHaveLength(0);
    expect(again.logLines(PGLITE_WARNING)).toHaveLength(1);
    await again.stopCleanly();
    expect(again.logLines("database closed")).toHaveLength(1);
    expect(readdirSync(dataDir)).toEqual(["pgdata"]);
  });
});
