import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withClient } from "../support/database";
import { EMPTY_OFFER_NUMBERS, VALID_OFFER_FORM } from "../support/offers";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "./harness/ports";
import { startServer } from "./harness/server-process";
import { hasPostgres, usePostgresServers } from "./harness/use-postgres";
import { MAIL_ENV } from "./harness/use-server";
import { postSiteForm, signInOverHttp, sleep } from "./support";

/**
 * Availability alerts exactly once (issue 30): two built servers on one PostgreSQL share the mail
 * outbox; many confirmed alerts wait on one sold-out offer, which the administrator sets back in
 * stock; while the mails leave through a slow SMTP server (it holds its replies), one instance is
 * killed with SIGKILL in the middle of its sends. In the end every address got exactly one mail.
 */

const ALERTS = 40;
const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les alertes" };
const OFFER = {
  ...VALID_OFFER_FORM,
  ...EMPTY_OFFER_NUMBERS,
  title: "Serveur Retour 128",
  reference: "RET-128",
  delivery: "sold_out",
};
const SUBJECT = "De nouveau disponible : Serveur Retour 128";
const address = (n: number) => `acheteur-${n}@example.fr`;

/** Waits until `ready()` holds (polling), failing with `what` after `ms`. */
async function until(what: string, ready: () => Promise<boolean> | boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(100);
  }
}

describe.skipIf(!hasPostgres)("availability alerts across a SIGKILL and two instances", () => {
  const { database, servers } = usePostgresServers("alerts_kill");
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startTestSmtpServer(await findFreePort());
  });
  afterAll(async () => {
    smtp?.hold(false);
    await smtp?.stop();
  });

  const sql = async <R extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
    withClient(database.url, async (c) => (await c.query<R>(text, values)).rows);
  const outbox = async () =>
    (
      await sql<{ sent: number; free: number; claimed: number }>(
        `select count(*) filter (where status = 'sent')::int as sent,
                count(*) filter (where status = 'pending' and (locked_until is null or locked_until <= now()))::int as free,
                count(*) filter (where status = 'pending' and locked_until > now())::int as claimed
         from mail_outbox where kind = 'alert_available'`,
      )
    )[0];
  const alertMails = () => smtp.mails.filter((m) => m.parsed.subject === SUBJECT);

  it("mails each confirmed alert exactly once", async () => {
    const env = {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: smtp.url,
      ...MAIL_ENV,
    };
    const start = async () => {
      const server = startServer({ port: await findFreePort(), databaseUrl: database.url, env });
      servers.push(server);
      return server.ready();
    };
    // Instance 1 (`a`, killed below) and instance 2, which survives.
    const a = await start();
    await start();
    const cookie = await signInOverHttp(a.base, ADMIN);
    expect((await postSiteForm(a.base, "/admin/offers/new", OFFER, cookie)).status).toBe(302);
    const [{ id: offerId }] = await sql<{ id: number }>(
      "select id from offers where reference = $1",
      [OFFER.reference],
    );
    // Confirmed alerts (subscribing and confirming are tests/system/alerts.test.ts's).
    await sql(
      `insert into offer_alerts (offer_id, email, confirmed_at)
       select $1, 'acheteur-' || g || '@example.fr', now() from generate_series(1, $2::int) g`,
      [offerId, ALERTS],
    );

    // Back in stock: the mails are queued with the change; a few leave, then the relay slows down.
    const saved = await postSiteForm(
      a.base,
      `/admin/offers/${offerId}`,
      { ...OFFER, delivery: "stock_24h" },
      cookie,
    );
    expect(saved.status).toBe(302);
    await until("the first mails", () => alertMails().length >= 4);
    smtp.hold(true);
    // Both instances wait on held replies: nothing accepted is left unrecorded, and rows are
    // still free (an instance not waiting would have claimed them).
    let previous = -1;
    await until("both instances waiting on the relay", async () => {
      const steady = smtp.held > 0 && smtp.held === previous;
      previous = smtp.held;
      if (!steady) await sleep(2000); // longer than a batch's bookkeeping on a loaded machine
      return steady && (await outbox()).free > 0;
    });
    const before = await outbox();
    console.log(
      `alerts under SIGKILL: ${alertMails().length} mails sent, ${smtp.held} held by the relay, ` +
        `${before.claimed} claimed, ${before.free} waiting when instance 1 is killed`,
    );
    const held = smtp.held;
    a.child.kill("SIGKILL");
    expect((await a.exited).signal).toBe("SIGKILL");
    // The relay sees the killed instance's connections close, and drops what they were sending.
    await until("the killed instance's connections dropped", () => smtp.held < held);
    await sleep(500);
    smtp.hold(false);

    // The other instance sends the rest; the killed one's claims wait for their lease.
    await until("the survivor drains the queue", async () => {
      const now = await outbox();
      return now.free === 0 && smtp.held === 0 && now.sent + now.claimed === ALERTS;
    });
    await sleep(1000);
    const orphans = await outbox();
    expect(orphans.sent + orphans.claimed).toBe(ALERTS);
    // The kill landed during sends: mails it had claimed and not sent wait for the lease.
    expect(orphans.claimed).toBeGreaterThan(0);
    // Five minutes later their leases run out (moved here rather than waited for); the killed
    // instance starts again and the two send them.
    await sql(
      "update mail_outbox set locked_until = now() where status = 'pending' and locked_until > now()",
    );
    await start();
    await until("every alert mail recorded as sent", async () => (await outbox()).sent === ALERTS);
    await sleep(1000);

    // Exactly one mail per confirmed alert, counted by recipient.
    const byRecipient = new Map<string, number>();
    for (const mail of alertMails()) {
      for (const to of mail.envelope.to) {
        byRecipient.set(to.toLowerCase(), (byRecipient.get(to.toLowerCase()) ?? 0) + 1);
      }
    }
    const expected = new Map(Array.from({ length: ALERTS }, (_, i) => [address(i + 1), 1]));
    expect(byRecipient).toEqual(expected);
    expect(alertMails()).toHaveLength(ALERTS);
    expect(
      await sql("select 1 from offer_alerts where notified_at is null or confirmed_at is null"),
    ).toHaveLength(0);
  });
});
