import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
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

/** A DKIM key pair of the test (2048 bits: the least the server accepts). */
function dkimKeys() {
  return generateKeyPairSync("rsa", { modulusLength: 2048 });
}
const DKIM = { DKIM_DOMAIN: "example.fr", DKIM_SELECTOR: "serveurpro" };

/**
 * The DKIM result of a received mail, as a receiving server computes it: mailauth's verifier, its
 * DNS answered from `publicKey` as the TXT record `serveurpro._domainkey.example.fr` would be.
 */
async function dkimResult(raw: string, publicKey: KeyObject) {
  const p = publicKey.export({ type: "spki", format: "der" }).toString("base64");
  const record = `${DKIM.DKIM_SELECTOR}._domainkey.${DKIM.DKIM_DOMAIN}`;
  const { results } = await dkimVerify(raw, {
    resolver: async (name: string, type: string) => {
      if (name !== record || type !== "TXT")
        throw Object.assign(new Error(name), { code: "ENOTFOUND" });
      return [[`v=DKIM1; k=rsa; p=${p}`]];
    },
  });
  return results.map((r) => ({
    domain: r.signingDomain,
    result: r.status.result,
    comment: r.status.comment,
  }));
}

describe("notification e-mails (embedded database)", () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  const keys = dkimKeys();
  let dkimEnv: Record<string, string>;
  beforeAll(() => {
    dataDir = tempDir("mail");
    const keyFile = path.join(dataDir, "dkim.key");
    writeFileSync(keyFile, keys.privateKey.export({ type: "pkcs8", format: "pem" }));
    dkimEnv = { ...DKIM, DKIM_PRIVATE_KEY_FILE: keyFile };
  });
  afterAll(async () => {
    await server?.stop();
    removeDir(dataDir);
  });

  it("refuses to start with SMTP_URL but no NOTIFY_EMAIL, a malformed SMTP_URL or an unreadable DKIM key", async () => {
    for (const env of <Record<string, string>[]>[
      { SMTP_URL: smtp.url },
      { SMTP_URL: "http://relay.example", NOTIFY_EMAIL: "ventes@example.fr" },
      { SMTP_URL: smtp.url, NOTIFY_EMAIL: "ventes@example.fr, pas-une-adresse" },
      { ...mailEnv(), ...DKIM, DKIM_PRIVATE_KEY_FILE: path.join(dataDir, "absente.key") },
    ]) {
      const refused = startServer({ port: await findFreePort(), dataDir, env });
      expect((await refused.exited).code).toBe(1);
      expect(refused.output).toMatch(
        /Configuration invalide[\s\S]*(NOTIFY_EMAIL|SMTP_URL|DKIM_PRIVATE_KEY_FILE: fichier illisible)/,
      );
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

    server = await startServer({
      port: await findFreePort(),
      dataDir,
      env: { ...mailEnv(), ...dkimEnv },
    }).ready();
    expect(server.logLines("e-mail notifications on")).toMatchObject([
      { dkim: "serveurpro._domainkey.example.fr" },
    ]);
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

  it("signs each mail with DKIM: it verifies against the published key, not a tampered copy or another key", async () => {
    const raw = smtp.mails[0].raw;
    expect(raw).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=example\.fr;/m);
    expect(await dkimResult(raw, keys.publicKey)).toMatchObject([
      { domain: "example.fr", result: "pass" },
    ]);
    for (const mail of smtp.mails.slice(1)) {
      expect((await dkimResult(mail.raw, keys.publicKey))[0].result).toBe("pass");
    }
    // The body changed on the way (a relay adding a footer), or a header the signature covers.
    const [head, body] = [
      raw.slice(0, raw.indexOf("\r\n\r\n")),
      raw.slice(raw.indexOf("\r\n\r\n")),
    ];
    // mailauth says neutral for a body that no longer matches its hash (DMARC needs a pass).
    expect(
      await dkimResult(`${head}${body.replace("Bonjour", "Bonsoir")}`, keys.publicKey),
    ).toMatchObject([{ result: "neutral", comment: "body hash did not verify" }]);
    expect(
      (
        await dkimResult(
          raw.replace(/^Subject: .*$/m, "Subject: Gagnez un serveur"),
          keys.publicKey,
        )
      )[0].result,
    ).toBe("fail");
    // A DNS record of another key (a rotated or mistyped one).
    expect((await dkimResult(raw, dkimKeys().publicKey))[0].result).toBe("fail");
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
