import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "./harness/ports";
import { type ServerProcess, startServer } from "./harness/server-process";
import { hasPostgres, settledQueue, usePostgresServers } from "./harness/use-postgres";
import { MAIL_ENV } from "./harness/use-server";
import { clientAddress, postContact, removeDir, sleep, tempDir } from "./support";

/**
 * Notification e-mails through the built server in real processes, with a real SMTP server on
 * loopback: one mail per request, none for the honeypot, nothing lost to an SMTP outage or a
 * SIGKILL, and two instances on one PostgreSQL sending each mail once.
 */

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer(await findFreePort());
});
afterAll(async () => {
  await smtp?.stop();
});

// The team's notifications only: the visitors' acknowledgements are acknowledgement.test.ts's.
const mailEnv = (retryMaxSeconds = 1) => ({
  ACK_EMAIL: "false",
  SMTP_URL: smtp.url,
  ...MAIL_ENV,
  MAIL_RETRY_MAX_SECONDS: String(retryMaxSeconds),
});

let visitorCount = 0;
/** Posts a request whose message carries `tag`; returns the HTTP status. */
async function request(server: ServerProcess, tag: string, extra: Record<string, string> = {}) {
  const n = ++visitorCount;
  return postContact(
    server.base,
    {
      name: `Visiteur ${n}`,
      email: `visiteur${n}@example.fr`,
      message: `Bonjour ${tag}`,
      ...extra,
    },
    clientAddress(1000 + n),
  );
}

/** How many received mails carry each tag. */
function countByTag(tags: string[]): Record<string, number> {
  return Object.fromEntries(
    tags.map((tag) => [
      tag,
      smtp.mails.filter((m) => m.parsed.text?.includes(`Bonjour ${tag}\n`)).length,
    ]),
  );
}

const ones = (tags: string[]) => Object.fromEntries(tags.map((t) => [t, 1]));

describe("notification e-mails (embedded database)", () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  beforeAll(() => {
    dataDir = tempDir("mail");
  });
  afterAll(async () => {
    await server?.stop();
    removeDir(dataDir);
  });

  it("refuses to start with SMTP_URL but no NOTIFY_EMAIL, or a malformed SMTP_URL", async () => {
    for (const env of <Record<string, string>[]>[
      { SMTP_URL: smtp.url },
      { SMTP_URL: "http://relay.example", NOTIFY_EMAIL: "ventes@example.fr" },
      { SMTP_URL: smtp.url, NOTIFY_EMAIL: "ventes@example.fr, pas-une-adresse" },
    ]) {
      const refused = startServer({ port: await findFreePort(), dataDir, env });
      expect((await refused.exited).code).toBe(1);
      expect(refused.output).toMatch(/Configuration invalide[\s\S]*(NOTIFY_EMAIL|SMTP_URL)/);
      // Nothing was opened: the directory holds no database.
      expect(refused.output).not.toContain("database ready");
    }
  });

  it("without SMTP_URL, says so once and queues; with it, sends what waited", async () => {
    server = await startServer({ port: await findFreePort(), dataDir }).ready();
    expect(
      server.logLines(
        "e-mail notifications are off (SMTP_URL is not set): contact requests are stored and their mails wait in the outbox",
      ),
    ).toHaveLength(1);
    expect(await request(server, "queued-while-off")).toBe(200);
    await server.stop();

    server = await startServer({ port: await findFreePort(), dataDir, env: mailEnv() }).ready();
    expect(server.logLines("e-mail notifications on")).toHaveLength(1);
    await smtp.waitForMails(1);
    expect(countByTag(["queued-while-off"])).toEqual({ "queued-while-off": 1 });
  });

  it("sends one mail per request, none for a honeypot hit, and measures the delay", async () => {
    smtp.mails.length = 0;
    expect(await request(server!, "spam", { website: "https://spam.example" })).toBe(200);
    const tags = Array.from({ length: 10 }, (_, i) => `delay-${i}`);
    const delays: number[] = [];
    for (const tag of tags) {
      const before = smtp.mails.length;
      const started = Date.now();
      expect(await request(server!, tag)).toBe(200);
      const [mail] = (await smtp.waitForMails(before + 1)).slice(before);
      delays.push(mail.receivedAt - started);
    }
    await server!.waitForLog("mail sent", 11);
    expect(countByTag([...tags, "spam"])).toEqual({ ...ones(tags), spam: 0 });
    expect(smtp.mails).toHaveLength(10);
    const sorted = [...delays].sort((a, b) => a - b);
    console.log(
      `mail delay, request posted to mail accepted by SMTP (embedded database, 10 requests): ` +
        `median ${sorted[5]} ms, min ${sorted[0]} ms, max ${sorted[9]} ms`,
    );
    const mail = smtp.mails[0].parsed;
    expect(mail.subject).toMatch(/^Nouvelle demande de contact : Visiteur \d+$/);
    expect(mail.text).toMatch(
      new RegExp(`Voir la demande : ${server!.base}/admin/contacts/\\d+\\n`),
    );
  });

  it("acknowledges requests during an SMTP outage and sends each once when SMTP is back", async () => {
    smtp.mails.length = 0;
    await smtp.stop();
    const failuresBefore = server!.logLines("mail not sent; will retry").length;
    const tags = Array.from({ length: 5 }, (_, i) => `outage-${i}`);
    for (const tag of tags) expect(await request(server!, tag)).toBe(200);
    // Every mail tried at least once, and refused.
    await server!.waitForLog("mail not sent; will retry", failuresBefore + 5);
    await smtp.start();
    await smtp.waitForMails(5);
    await server!.waitForLog("mail sent", 11 + 5);
    expect(countByTag(tags)).toEqual(ones(tags));
    console.log(
      `SMTP outage: 5 requests acknowledged (HTTP 200) while SMTP was down, ` +
        `${server!.logLines("mail not sent; will retry").length - failuresBefore} failed attempts, ` +
        `then 5 mails, each once, after SMTP came back`,
    );
  });

  it("sends after a restart what a server killed with SIGKILL had not sent", async () => {
    // A clean stop first: the worker stops before the database closes.
    expect(await server!.stop()).toEqual({ code: 0, signal: null });
    const order = server!.output
      .split("\n")
      .filter((l) => /"msg":"(mail worker stopped|database closed)"/.test(l))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(order).toEqual(["mail worker stopped", "database closed"]);
    smtp.mails.length = 0;
    await smtp.stop();
    // A long backoff: after its first refused attempt, each mail waits 10 s, so the kill below
    // lands while no mail is being sent.
    server = await startServer({
      port: await findFreePort(),
      dataDir,
      env: mailEnv(60),
    }).ready();
    const failuresBefore = server.logLines("mail not sent; will retry").length;
    const tags = Array.from({ length: 3 }, (_, i) => `killed-${i}`);
    for (const tag of tags) expect(await request(server, tag)).toBe(200);
    await server.waitForLog("mail not sent; will retry", failuresBefore + 3);
    server.child.kill("SIGKILL");
    expect((await server.exited).signal).toBe("SIGKILL");

    await smtp.start();
    server = await startServer({ port: await findFreePort(), dataDir, env: mailEnv() }).ready();
    await smtp.waitForMails(3);
    await server.waitForLog("mail sent", 3);
    expect(countByTag(tags)).toEqual(ones(tags));
  });
});

describe.skipIf(!hasPostgres)("notification e-mails (two instances on PostgreSQL)", () => {
  const { database, servers } = usePostgresServers("mail");

  it("sends each request's mail once, whichever instance took the request", async () => {
    smtp.mails.length = 0;
    for (let i = 0; i < 2; i++) {
      servers.push(
        startServer({ port: await findFreePort(), databaseUrl: database.url, env: mailEnv() }),
      );
    }
    await Promise.all(servers.map((s) => s.ready()));
    const tags = Array.from({ length: 20 }, (_, i) => `pg-${i}`);
    const delays: number[] = [];
    await Promise.all(
      tags.map(async (tag, i) => {
        const started = Date.now();
        expect(await request(servers[i % 2], tag)).toBe(200);
        const mail = await (async () => {
          for (;;) {
            const found = smtp.mails.find((m) => m.parsed.text?.includes(`Bonjour ${tag}\n`));
            if (found) return found;
            await sleep(20);
          }
        })();
        delays.push(mail.receivedAt - started);
      }),
    );
    // Recorded as sent, once each, and nothing more arrives once both instances stopped.
    expect(await settledQueue(database.url, "mail_outbox", "sent")).toEqual([
      { status: "sent", attempts: 1, n: 20 },
    ]);
    await Promise.all(servers.map((s) => s.stop()));
    expect(countByTag(tags)).toEqual(ones(tags));
    expect(smtp.mails).toHaveLength(20);
    const byInstance = servers.map((s) => s.logLines("mail sent").length);
    const sorted = [...delays].sort((a, b) => a - b);
    console.log(
      `two instances on PostgreSQL: 20 requests, 20 mails, each once (sent by instance 1: ` +
        `${byInstance[0]}, instance 2: ${byInstance[1]}); delay median ${sorted[10]} ms, max ${sorted[19]} ms`,
    );
  });
});
