import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withClient } from "../support/database";
import { DOVECOT_PATH, startTestImapServer, type TestImapServer } from "../support/imap";
import { findFreePort } from "./harness/ports";
import { startServer } from "./harness/server-process";
import { hasPostgres, usePostgresServers } from "./harness/use-postgres";
import { clientAddress, postContact, postSiteForm, signInOverHttp, sleep } from "./support";

/**
 * The buyers' replies read by two built instances on one PostgreSQL (issue 40), from Dovecot on
 * loopback: both poll the same mailbox every 5 s, one is killed (SIGKILL) while replies keep
 * coming and started again, and every reply is stored once, with one mail to the team.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les réponses" };
const noDovecot = !existsSync(DOVECOT_PATH) && !process.env.CI;
let imap: TestImapServer;

beforeAll(async () => {
  if (!noDovecot) imap = await startTestImapServer();
});
afterAll(async () => {
  await imap?.stop();
});

describe.skipIf(!hasPostgres || noDovecot)("replies read by two instances on PostgreSQL", () => {
  const { database, servers } = usePostgresServers("replies", { twoRoles: true });

  it("stores each reply once across two instances and a SIGKILL of one", async () => {
    const env = {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      MIGRATION_DATABASE_URL: database.migrationUrl,
      TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
      REPLY_MAILBOX: "ventes@example.fr",
      IMAP_URL: imap.url,
      IMAP_POLL_SECONDS: "5",
    };
    const ports = [await findFreePort(), await findFreePort()];
    for (const port of ports) {
      servers.push(startServer({ port, databaseUrl: database.url, env }));
      await servers.at(-1)!.ready();
    }
    const [first] = servers;
    expect(
      await postContact(
        first.base,
        { name: "Jeanne Achat", email: "jeanne@example.fr", message: "Un devis" },
        clientAddress(4001),
      ),
    ).toBe(200);
    const query = <T extends object>(text: string) =>
      withClient(
        database.url,
        async (c) => (await c.query<T & Record<string, unknown>>(text)).rows,
      );
    const [{ id }] = await query<{ id: number }>("select id from contact_requests");
    // The salesperson writes from the request's page: the buyer answers that message.
    const cookie = await signInOverHttp(first.base, ADMIN);
    const written = await postSiteForm(
      first.base,
      `/admin/contacts/${id}`,
      { intent: "reply", subject: "Votre demande", body: "Bonjour" },
      cookie,
    );
    expect(written.status).toBe(302);
    const [{ message_id: ours }] = await query<{ message_id: string }>(
      "select message_id from request_messages where direction = 'outbound'",
    );
    const reply = (n: number) =>
      [
        "From: Jeanne Achat <jeanne@example.fr>",
        "To: ventes@example.fr",
        `Subject: Re: Votre demande (${n})`,
        `Message-ID: <reply-${n}@client.example>`,
        `In-Reply-To: ${ours}`,
        `References: ${ours}`,
        "Content-Type: text/plain; charset=UTF-8",
        "",
        `Réponse numéro ${n}.`,
        "",
      ].join("\r\n");
    const stored = async () =>
      (
        await query<{ n: number; distinct: number; attached: number }>(
          `select count(*)::int as n, count(distinct message_id)::int as distinct,
                  count(contact_request_id)::int as attached
             from request_messages where direction = 'inbound'`,
        )
      )[0];
    const waitFor = async (count: number) => {
      for (let i = 0; i < 600 && (await stored()).n < count; i++) await sleep(100);
      return stored();
    };

    for (let n = 1; n <= 10; n++) await imap.append(reply(n));
    expect(await waitFor(10)).toEqual({ n: 10, distinct: 10, attached: 10 });

    // One instance killed while replies arrive, then started again on the same database.
    await servers[1].stop("SIGKILL");
    for (let n = 11; n <= 15; n++) await imap.append(reply(n));
    servers[1] = startServer({ port: ports[1], databaseUrl: database.url, env });
    await servers[1].ready();
    for (let n = 16; n <= 20; n++) await imap.append(reply(n));
    expect(await waitFor(20)).toEqual({ n: 20, distinct: 20, attached: 20 });
    // Both instances read a while longer: still once each.
    await sleep(6_000);
    expect(await stored()).toEqual({ n: 20, distinct: 20, attached: 20 });
    const [{ told }] = await query<{ told: number }>(
      "select count(*)::int as told from mail_outbox where kind = 'request_replied'",
    );
    expect(told).toBe(20);
    const byInstance = servers.map((s) => s.logLines("mailbox read").length);
    console.log(
      `two instances, one killed: 20 replies stored once (reads that found new messages, per instance: ${byInstance.join(", ")})`,
    );
  });
});
