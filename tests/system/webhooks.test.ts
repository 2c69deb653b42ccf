import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOURNAL_UNPROTECTED } from "../../app/features/setup/startup.server";
import { withClient } from "../support/database";
import { findFreePort } from "./harness/ports";
import { type ServerProcess, startServer } from "./harness/server-process";
import { hasPostgres, settledQueue, usePostgresServers } from "./harness/use-postgres";
import { WebhookReceiver } from "./harness/webhook-receiver";
import {
  clientAddress,
  postContact,
  postSiteForm,
  removeDir,
  signInOverHttp,
  tempDir,
} from "./support";

/**
 * CRM webhooks through the built server in real processes, to a receiver on loopback that
 * verifies every signature with the `standardwebhooks` library: a refused delivery is retried,
 * a SIGKILL loses none, two instances on one PostgreSQL deliver each event once.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les webhooks" };
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver(await findFreePort()).start();
});
afterAll(async () => {
  await receiver?.stop();
});

const webhookEnv = (retryMaxSeconds = 1) => ({
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_RETRY_MAX_SECONDS: String(retryMaxSeconds),
  // The signing secret is stored encrypted (issue 28): the receiver verifies what it decrypts to.
  TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
});

/** Adds the receiver as an endpoint through the admin page; keeps the secret it shows once. */
async function addEndpoint(server: ServerProcess): Promise<string> {
  const cookie = await signInOverHttp(server.base, ADMIN);
  const res = await postSiteForm(
    server.base,
    "/admin/webhooks",
    { intent: "create", url: receiver.url, created: "on", updated: "on" },
    cookie,
  );
  const html = await res.text();
  expect(res.status).toBe(200);
  const secret = /data-webhook-secret[^>]*>(whsec_[A-Za-z0-9+/=]+)</.exec(html)?.[1];
  expect(secret).toBeDefined();
  receiver.secret = secret!;
  // Shown once: the list does not show it again.
  const page = await (await fetch(`${server.base}/admin/webhooks`, { headers: { cookie } })).text();
  expect(page).toContain(receiver.url);
  expect(page).not.toContain(secret);
  return cookie;
}

let visitorCount = 0;
async function request(server: ServerProcess, tag: string) {
  const n = ++visitorCount;
  const status = await postContact(
    server.base,
    { name: `Visiteur ${n}`, email: `visiteur${n}@example.fr`, message: `Bonjour ${tag}` },
    clientAddress(2000 + n),
  );
  expect(status).toBe(200);
}

/** Accepted deliveries per tag (the message of the request). */
function acceptedByTag(tags: string[]): Record<string, number> {
  return Object.fromEntries(
    tags.map((tag) => [
      tag,
      receiver.accepted().filter((r) => r.body.data.message === `Bonjour ${tag}`).length,
    ]),
  );
}

const ones = (tags: string[]) => Object.fromEntries(tags.map((t) => [t, 1]));

describe("CRM webhooks (embedded database)", () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  let cookie: string;
  beforeAll(async () => {
    dataDir = tempDir("webhooks");
    server = await startServer({
      port: await findFreePort(),
      dataDir,
      env: webhookEnv(),
    }).ready();
    cookie = await addEndpoint(server);
  });
  afterAll(async () => {
    await server?.stop();
    removeDir(dataDir);
  });

  it("retries a refused delivery with the same id, and the page shows it", async () => {
    receiver.answer = (_, attempt) => (attempt === 1 ? 503 : 200);
    await request(server!, "refused-once");
    await receiver.waitForAccepted(1);
    const attempts = receiver.received.filter(
      (r) => r.body.data.message === "Bonjour refused-once",
    );
    expect(attempts.map((r) => r.answered)).toEqual([503, 200]);
    expect(new Set(attempts.map((r) => r.id)).size).toBe(1);
    expect(attempts[1].body.type).toBe("request.created");
    expect(attempts[1].body.data.reference).toMatch(/^DEM-\d{4}-\d{5}$/);
    expect(receiver.rejected).toBe(0);
    console.log(
      `webhook refused once, then retried after ${attempts[1].receivedAt - attempts[0].receivedAt} ms ` +
        `(WEBHOOK_RETRY_MAX_SECONDS=1)`,
    );

    await server!.waitForLog("webhook delivered", 1);
    const page = await (
      await fetch(`${server!.base}/admin/webhooks`, { headers: { cookie } })
    ).text();
    const row = /<tr[^>]*data-webhook-delivery="(\d+)"[\s\S]*?<\/tr>/.exec(page);
    expect(row?.[0]).toContain("Livré");
    expect(row?.[0]).toMatch(/>200</);
    expect(row?.[0]).toMatch(/>2</);

    // Renvoyer: the same message again, with the same id.
    receiver.answer = () => 200;
    const resend = await postSiteForm(
      server!.base,
      "/admin/webhooks",
      { intent: "resend", id: row![1] },
      cookie,
    );
    expect(resend.status).toBe(302);
    await server!.waitForLog("webhook delivered", 2);
    expect(receiver.accepted(attempts[0].id)).toHaveLength(2);
  });

  it("delivers after a restart what a server killed with SIGKILL had not delivered", async () => {
    receiver.received.length = 0;
    expect(await server!.stop()).toEqual({ code: 0, signal: null });
    // A long backoff: after its first refused attempt each delivery waits 10 s, so the kill
    // below lands while deliveries wait in the queue.
    server = await startServer({
      port: await findFreePort(),
      dataDir,
      env: webhookEnv(60),
    }).ready();
    receiver.answer = () => 503;
    const tags = Array.from({ length: 3 }, (_, i) => `killed-${i}`);
    for (const tag of tags) await request(server, tag);
    await server.waitForLog("webhook not delivered; will retry", 3);
    server.child.kill("SIGKILL");
    expect((await server.exited).signal).toBe("SIGKILL");

    receiver.answer = () => 200;
    server = await startServer({ port: await findFreePort(), dataDir, env: webhookEnv() }).ready();
    await receiver.waitForAccepted(3);
    await server.waitForLog("webhook delivered", 3);
    expect(acceptedByTag(tags)).toEqual(ones(tags));
    expect(receiver.rejected).toBe(0);
  });
});

// With the production roles (docs/production.md, issue 28): the servers run as a role that may
// only append to the journal, the migrations as the owner.
describe.skipIf(!hasPostgres)("CRM webhooks (two instances on PostgreSQL, two roles)", () => {
  const { database, servers } = usePostgresServers("webhooks", { twoRoles: true });

  it("delivers each event once, whichever instance took the request", async () => {
    receiver.received.length = 0;
    receiver.answer = () => 200;
    for (let i = 0; i < 2; i++) {
      servers.push(
        startServer({
          port: await findFreePort(),
          databaseUrl: database.url,
          env: { ...webhookEnv(), MIGRATION_DATABASE_URL: database.migrationUrl },
        }),
      );
      // The first migrates; the second starts on a ready database.
      await servers[i].ready();
    }
    await addEndpoint(servers[0]);
    const tags = Array.from({ length: 20 }, (_, i) => `pg-${i}`);
    await Promise.all(tags.map((tag, i) => request(servers[i % 2], tag)));
    await receiver.waitForAccepted(20);
    expect(await settledQueue(database.url, "webhook_deliveries", "delivered")).toEqual([
      { status: "delivered", attempts: 1, n: 20 },
    ]);
    await Promise.all(servers.map((s) => s.stop()));
    expect(acceptedByTag(tags)).toEqual(ones(tags));
    expect(receiver.received).toHaveLength(20);
    expect(receiver.rejected).toBe(0);
    // The server's role wrote the journal (sign-in, webhook added) and may not alter it.
    const journal = await withClient(database.url, async (c) => ({
      actions: (await c.query<{ action: string }>("select action from audit_journal")).rows.map(
        (r) => r.action,
      ),
      refused: await c.query("delete from audit_journal").then(
        () => "deleted",
        (error: { code?: string }) => error.code,
      ),
    }));
    expect(journal.actions).toEqual(expect.arrayContaining(["sign-in", "webhook-added"]));
    expect(journal.refused).toBe("42501");
    for (const s of servers) expect(s.logLines(JOURNAL_UNPROTECTED.oneRole)).toHaveLength(0);
    const byInstance = servers.map((s) => s.logLines("webhook delivered").length);
    console.log(
      `two instances on PostgreSQL: 20 requests, 20 webhooks, each once (instance 1: ` +
        `${byInstance[0]}, instance 2: ${byInstance[1]})`,
    );
  });
});
