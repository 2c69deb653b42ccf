import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedMessages, postContactsUntilStopped, storedIds } from "./harness/contact-load";
import { createPostgresDatabase, type TestDatabase, withClient } from "../support/database";
import { hasPostgres } from "./harness/use-postgres";
import { findFreePort } from "./harness/ports";
import { startServer, type ServerOptions } from "./harness/server-process";
import { removeDir, sleep, tempDir } from "./support";

/**
 * Contact requests are sales leads: every request the server acknowledged (HTTP 200) must be in the
 * database after the server is killed with SIGKILL in the middle of the load and restarted.
 */

const CLIENTS = 20;

type Outcome = { acknowledged: Set<string>; failed: number; rejected: number; killAt: number };

/** CLIENTS concurrent clients posting until the server dies; the server is killed at a random point. */
async function loadThenKill(options: ServerOptions, label: string): Promise<Outcome> {
  const server = await startServer(options).ready();
  // Kill once between 40 and 120 requests were acknowledged (or after 20 s at the latest).
  const killAt = 40 + Math.floor(Math.random() * 80);
  const load = postContactsUntilStopped(server.base, {
    clients: CLIENTS,
    label,
    gone: () => !server.running,
  });
  const deadline = Date.now() + 20_000;
  while (load.acknowledged.size < killAt && Date.now() < deadline && server.running) await sleep(5);
  server.child.kill("SIGKILL");
  const exit = await server.exited;
  await load.stop();
  expect(exit.signal).toBe("SIGKILL");
  const { acknowledged, failed, rejected } = load;
  return { acknowledged, failed, rejected, killAt };
}

function report(kind: string, outcome: Outcome, stored: Set<string>) {
  const lost = [...outcome.acknowledged].filter((id) => !stored.has(id));
  console.log(
    `durability ${kind}: ${CLIENTS} clients, ${outcome.acknowledged.size} acknowledged, ` +
      `${[...outcome.acknowledged].filter((id) => stored.has(id)).length} stored, ${lost.length} lost ` +
      `(${stored.size - outcome.acknowledged.size} stored without an answer, ` +
      `${outcome.failed} requests cut by the kill, ${outcome.rejected} non-200; killed after ${outcome.killAt}+ acknowledgements)`,
  );
  return lost;
}

describe("durability: SIGKILL during contact requests", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("embedded database (PGlite): every acknowledged request survives", async () => {
    const dataDir = tempDir("durability-pglite");
    cleanups.push(() => removeDir(dataDir));
    const label = `durability ${randomBytes(4).toString("hex")}`;
    const outcome = await loadThenKill({ port: await findFreePort(), dataDir }, label);
    expect(outcome.acknowledged.size).toBeGreaterThan(0);

    // The server reopens the killed directory (stale lock, WAL replay) and serves again.
    const restarted = await startServer({ port: await findFreePort(), dataDir }).ready();
    expect((await fetch(`${restarted.base}/offers`)).status).toBe(200);
    await restarted.stopCleanly();

    const lost = report("pglite", outcome, storedIds(await embeddedMessages(dataDir), label));
    expect(lost).toEqual([]);
  });

  it.skipIf(!hasPostgres)("PostgreSQL: every acknowledged request survives", async () => {
    const database: TestDatabase = await createPostgresDatabase("durability");
    cleanups.push(() => database.drop());
    const label = `durability ${randomBytes(4).toString("hex")}`;
    const outcome = await loadThenKill(
      { port: await findFreePort(), databaseUrl: database.url },
      label,
    );
    expect(outcome.acknowledged.size).toBeGreaterThan(0);

    const restarted = await startServer({
      port: await findFreePort(),
      databaseUrl: database.url,
    }).ready();
    expect((await fetch(`${restarted.base}/offers`)).status).toBe(200);
    await restarted.stopCleanly();

    const messages = await withClient(database.url, async (c) =>
      (await c.query<{ message: string }>("select message from contact_requests")).rows.map(
        (r) => r.message,
      ),
    );
    const lost = report("postgres", outcome, storedIds(messages, label));
    expect(lost).toEqual([]);
  });
});
