import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { decodeHtml } from "./hostile/run";
import { send } from "./harness/http";
import {
  createPostgresInstance,
  postgresBinariesFor,
  type PostgresInstance,
} from "./harness/postgres-instance";
import { findFreePort } from "./harness/ports";
import { startServer, type ServerProcess } from "./harness/server-process";
import { clientAddress, sleep } from "./support";

// Issue 19: PostgreSQL restarts under the server (a minor upgrade, a failover) and a server
// started before its database. A throwaway PostgreSQL server of our own, never the shared one.
const available = postgresBinariesFor("restart tests");

const UNAVAILABLE = "Service momentanément indisponible";
const CLIENTS = 10;

let postgres: PostgresInstance | undefined;
let server: ServerProcess | undefined;
let smtp: TestSmtpServer | undefined;

async function sql<T extends pg.QueryResultRow>(query: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgres!.url });
  await client.connect();
  try {
    return (await client.query<T>(query)).rows;
  } finally {
    await client.end();
  }
}

/** One contact post as a browser sends it (form token included), without following the 303. */
async function postContact(base: string, client: number, id: string, token: string) {
  const sentAt = Date.now();
  const res = await fetch(`${base}/contact`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": clientAddress(client + 1),
    },
    body: new URLSearchParams({
      name: `Client ${client}`,
      email: `client${client}@example.fr`,
      phone: "",
      offer: "",
      message: `redemarrage ${id}`,
      submission: token,
    }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  const location = res.headers.get("location");
  return { status: res.status, location, text, sentAt, at: Date.now() };
}

/** `sentAt` and `at`: when the post left and when its answer was read, in this process. */
type Outcome = { status: number; sentAt: number; at: number; retryAfter?: string | null };

/**
 * `CLIENTS` visitors posting one after another until stopped. A post that is not acknowledged
 * (503, connection error) is sent again with the same token, as a visitor pressing the button
 * again would, so a post stored but answered with an error would show as a duplicate.
 */
function load(base: string) {
  let stopped = false;
  const acknowledged = new Set<string>();
  const outcomes: Outcome[] = [];
  let connectionErrors = 0;
  const client = async (n: number) => {
    let seq = 0;
    let token = randomUUID();
    while (!stopped) {
      const id = `${n}-${seq}`;
      try {
        const answer = await postContact(base, n, id, token);
        outcomes.push({ status: answer.status, sentAt: answer.sentAt, at: answer.at });
        if (answer.status === 303 && answer.location?.startsWith("/contact/merci?ref=")) {
          acknowledged.add(id);
          seq++;
          token = randomUUID();
        } else {
          await sleep(100);
        }
      } catch {
        connectionErrors++;
        await sleep(100);
      }
    }
  };
  const running = Array.from({ length: CLIENTS }, (_, n) => client(n));
  return {
    acknowledged,
    outcomes,
    connectionErrors: () => connectionErrors,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

describe.skipIf(!available)("PostgreSQL restarting under the server", () => {
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterEach(async () => {
    await server?.stop("SIGKILL").catch(() => undefined);
    server = undefined;
    postgres?.destroy();
    postgres = undefined;
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  it("survives a restart under load: every acknowledged request stored and mailed once, 503 meanwhile", async () => {
    postgres = await createPostgresInstance();
    server = await startServer({
      port: await findFreePort(),
      env: {
        DATABASE_URL: postgres.url,
        CONTACT_RATE_LIMIT: "100000",
        SMTP_URL: smtp!.url,
        NOTIFY_EMAIL: "ventes@example.fr",
        // The sales team's notifications only: the visitors' acknowledgements are tested apart.
        ACK_EMAIL: "false",
      },
    }).ready();
    const pid = server.pid;
    const base = server.base;
    const traffic = load(base);
    await sleep(1_500);

    const stopping = Date.now();
    await postgres.stopAsync();
    const down = Date.now();
    await sleep(3_000);
    const health = await send(base, { path: "/healthz" });
    expect(health.status).toBe(503);
    expect(JSON.parse(health.text)).toMatchObject({ database: "unreachable" });
    const page = await send(base, { path: "/offers" });
    expect(page.status).toBe(503);
    expect(page.headers["retry-after"]).toBe("10");
    const starting = Date.now();
    await postgres.startAsync();
    // pg_ctl -w returns once PostgreSQL accepts connections.
    const up = Date.now();
    let recoveredAt = 0;
    while (Date.now() - up < 30_000) {
      const probe = await send(base, { path: "/healthz" });
      if (probe.status === 200) {
        recoveredAt = Date.now();
        break;
      }
      await sleep(20);
    }
    expect(recoveredAt, "the server serves again without a restart").toBeGreaterThan(0);
    await sleep(1_500);
    await traffic.stop();

    const firstAckAfter = traffic.outcomes.find((o) => o.at > up && o.status === 303)?.at ?? NaN;
    // Posts sent once PostgreSQL was down and answered before it started again (on a busy machine
    // the answer to a post stored just before the stop can be read after it).
    const during = traffic.outcomes.filter((o) => o.sentAt > down && o.at < starting);
    const statuses = new Map<number, number>();
    for (const o of traffic.outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    const figures = {
      stopMs: down - stopping,
      outageMs: up - stopping,
      healthzRecoveryMs: recoveredAt - up,
      firstAcknowledgedPostAfterMs: firstAckAfter - up,
      posts: traffic.outcomes.length,
      statuses: Object.fromEntries(statuses),
      postsDuringOutage: during.length,
      connectionErrors: traffic.connectionErrors(),
      acknowledged: traffic.acknowledged.size,
    };
    console.log(`PostgreSQL restart under load: ${JSON.stringify(figures)}`);

    // The process lived through it.
    expect(server.running).toBe(true);
    expect(server.pid).toBe(pid);
    // Only two answers: stored (303) or 'retry later' (503); never a connection error.
    expect([...statuses.keys()].every((s) => s === 303 || s === 503)).toBe(true);
    expect(traffic.connectionErrors()).toBe(0);
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((o) => o.status === 503)).toBe(true);
    // Generous bound (the figure is printed above): back well within seconds, not minutes.
    expect(recoveredAt - up).toBeLessThan(10_000);

    // Every acknowledged request stored exactly once, nothing stored twice.
    const rows = await sql<{ message: string; n: number }>(
      "select message, count(*)::int as n from contact_requests where message like 'redemarrage %' group by message",
    );
    const stored = new Map(rows.map((r) => [r.message.slice("redemarrage ".length), r.n]));
    const missing = [...traffic.acknowledged].filter((id) => !stored.has(id));
    expect(traffic.acknowledged.size, "posts acknowledged around the restart").toBeGreaterThan(0);
    expect(missing, "acknowledged but not stored").toEqual([]);
    expect(
      rows.filter((r) => r.n > 1),
      "stored twice",
    ).toEqual([]);

    // Each stored request's mail leaves once.
    const total = rows.length;
    await smtp!.waitForMails(total, 60_000);
    await sleep(500);
    const mailed = smtp!.mails.map((m) => m.parsed.messageId);
    expect(new Set(mailed).size).toBe(mailed.length);
    expect(mailed.length).toBe(total);
    const [{ unsent }] = await sql<{ unsent: number }>(
      "select count(*)::int as unsent from mail_outbox where status <> 'sent'",
    );
    expect(unsent).toBe(0);
    expect(server.logLines("database connection lost").length).toBeGreaterThan(0);
  });

  it("starts while PostgreSQL is down: keeps trying with a log line per attempt, 503 meanwhile, ready once it is up", async () => {
    postgres = await createPostgresInstance();
    postgres.stop();
    server = startServer({ port: await findFreePort(), env: { DATABASE_URL: postgres.url } });
    const base = server.base;
    // Listening, answering 503, while the attempts go on.
    let health;
    for (let i = 0; i < 200; i++) {
      health = await send(base, { path: "/healthz" }).catch(() => undefined);
      if (health) break;
      await sleep(50);
    }
    expect(health?.status).toBe(503);
    expect(JSON.parse(health!.text)).toEqual({ status: "unavailable", database: "starting" });
    const page = await send(base, { path: "/contact" });
    expect(page.status).toBe(503);
    expect(page.headers["retry-after"]).toBe("10");
    expect(decodeHtml(page.text)).toContain(UNAVAILABLE);
    const post = await send(base, {
      method: "POST",
      path: "/contact",
      headers: [["Content-Type", "application/x-www-form-urlencoded"]],
      body: "name=A&email=a%40example.fr&message=Bonjour",
    });
    expect(post.status).toBe(503);
    // Three attempts (250 + 500 + 1000 ms apart; later on a busy machine), the process still up.
    await server.waitForLog("database not reachable; retrying", 3, 30_000);
    expect(server.running).toBe(true);
    const attempts = server.logLines("database not reachable; retrying");
    const delays = attempts.map((l) => l.retryInMs as number);
    expect(delays.slice(0, 3)).toEqual([250, 500, 1000]);

    await postgres.startAsync();
    const up = Date.now();
    await server.ready(30_000);
    const readyMs = Date.now() - up;
    console.log(`Server started before PostgreSQL: ready ${readyMs} ms after PostgreSQL came up`);
    expect(server.logLines("database ready")).toHaveLength(1);
    const sent = await send(base, {
      method: "POST",
      path: "/contact",
      headers: [["Content-Type", "application/x-www-form-urlencoded"]],
      body: "name=Tardif&email=tardif%40example.fr&message=Bonjour",
    });
    expect(sent.status).toBe(303);
    expect((await sql("select 1 from contact_requests where name = 'Tardif'")).length).toBe(1);
  });
});
