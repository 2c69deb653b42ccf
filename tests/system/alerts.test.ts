import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, type TestDatabase, withClient } from "../support/database";
import { EMPTY_OFFER_NUMBERS, VALID_OFFER_FORM } from "../support/offers";
import { runScript } from "../support/scripts";
import { startTestSmtpServer, type ReceivedMail, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "./harness/ports";
import { type ServerProcess, startServer } from "./harness/server-process";
import { hasPostgres, settledQueue } from "./harness/use-postgres";
import { MAIL_ENV } from "./harness/use-server";
import { decodeHtml } from "./hostile/run";
import { clientAddress, postSiteForm, signInOverHttp, sleep } from "./support";

/**
 * `Me prévenir` (issue 30) through two built servers on one PostgreSQL database and a real SMTP
 * server on loopback: subscribe on a sold-out offer, confirm by the mailed link, the administrator
 * sets the offer in stock, exactly one mail (both instances send the outbox), the one-click
 * unsubscribe works, a second change mails nothing, and unconfirmed alerts are purged.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les alertes" };
const OFFER = {
  ...VALID_OFFER_FORM,
  ...EMPTY_OFFER_NUMBERS,
  title: "Serveur Alerte 64",
  reference: "ALR-064",
  delivery: "sold_out",
};
const SLUG = "serveur-alerte-64";
/** A link of an alert mail: on the SITE_URL of whichever instance sent it (both share the database). */
const TOKEN_LINK = (path: string) =>
  new RegExp(`http://127\\.0\\.0\\.1:\\d+${path}\\?jeton=([A-Za-z0-9_-]{43})`);

describe.skipIf(!hasPostgres)("availability alerts", () => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let a: ServerProcess;
  let b: ServerProcess;
  let cookie: string;
  let offerId: number;

  beforeAll(async () => {
    database = await createPostgresDatabase("alerts");
    smtp = await startTestSmtpServer(await findFreePort());
    const env = {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: smtp.url,
      ...MAIL_ENV,
    };
    a = startServer({ port: await findFreePort(), databaseUrl: database.url, env });
    await a.ready();
    b = startServer({ port: await findFreePort(), databaseUrl: database.url, env });
    await b.ready();
    cookie = await signInOverHttp(a.base, ADMIN);
  });

  afterAll(async () => {
    await Promise.allSettled([a?.stop("SIGTERM"), b?.stop("SIGTERM")]);
    await smtp?.stop();
    await database?.drop();
  });

  const sql = <R extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
    withClient(database.url, async (c) => (await c.query<R>(text, values)).rows);
  const mailsTo = (address: string): ReceivedMail[] =>
    smtp.mails.filter((m) =>
      m.envelope.to.some((to) => to.toLowerCase() === address.toLowerCase()),
    );
  const saveOffer = (fields: Record<string, string>) =>
    postSiteForm(a.base, `/admin/offers/${offerId}`, { ...OFFER, ...fields }, cookie);

  it("shows `Me prévenir` on a sold-out offer and mails a confirmation link", async () => {
    const created = await postSiteForm(a.base, "/admin/offers/new", OFFER, cookie);
    expect(created.status).toBe(302);
    [{ id: offerId }] = await sql<{ id: number }>("select id from offers where slug = $1", [SLUG]);

    const page = decodeHtml(await (await fetch(`${b.base}/offers/${SLUG}`)).text());
    expect(page).toContain("Épuisé");
    expect(page).toContain(`action="/alertes?offre=${SLUG}"`);
    expect(page).toContain("Me prévenir");
    // The page of an offer in stock has no form.
    const inStock = await (await fetch(`${b.base}/offers`)).text();
    const other = /href="\/offers\/([a-z0-9-]+)"/.exec(inStock)?.[1];
    const [{ delivery }] = await sql<{ delivery: string }>(
      "select delivery::text from offers where slug = $1",
      [other],
    );
    if (delivery.startsWith("stock")) {
      expect(await (await fetch(`${b.base}/offers/${other}`)).text()).not.toContain("/alertes?");
    }

    const posted = await postSiteForm(
      b.base,
      `/alertes?offre=${SLUG}`,
      { email: "Jeanne@Example.fr" },
      "",
      clientAddress(7001),
    );
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe(`/alertes?offre=${SLUG}&envoyee=1`);
    const sent = decodeHtml(
      await (await fetch(`${b.base}${posted.headers.get("location")}`)).text(),
    );
    expect(sent).toContain("Vérifiez votre boîte de réception");

    const [mail] = await smtp.waitForMails(1);
    // To the address as typed (an SMTP server may fold its case).
    expect(mail.envelope.to.map((to) => to.toLowerCase())).toEqual(["jeanne@example.fr"]);
    expect(mail.parsed.to?.[0]?.name).toBe("");
    expect(mail.parsed.to?.[0]?.address?.toLowerCase()).toBe("jeanne@example.fr");
    expect(mail.parsed.subject).toBe("Confirmez votre alerte : Serveur Alerte 64");
    const headers = new Map(mail.parsed.headers.map((h) => [h.key, h.value]));
    const unsubscribe = TOKEN_LINK("/alertes/desinscription").exec(mail.parsed.text ?? "");
    expect(unsubscribe).not.toBeNull();
    expect(headers.get("list-unsubscribe")).toBe(`<${unsubscribe![0]}>`);
    expect(headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    // Only the token's hash is stored.
    const [{ token_hash }] = await sql<{ token_hash: string }>(
      "select token_hash from offer_alerts where offer_id = $1",
      [offerId],
    );
    expect(token_hash).not.toBe(unsubscribe![1]);
    expect(token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("confirms by the link's button (the link alone changes nothing), then counts it for the team", async () => {
    const confirmLink = TOKEN_LINK("/alertes/confirmer").exec(
      mailsTo("Jeanne@Example.fr")[0].parsed.text ?? "",
    );
    expect(confirmLink).not.toBeNull();
    const page = await fetch(confirmLink![0]);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(decodeHtml(await page.text())).toContain("Confirmer mon alerte");
    expect(
      await sql("select 1 from offer_alerts where confirmed_at is not null and offer_id = $1", [
        offerId,
      ]),
    ).toHaveLength(0);

    const confirmed = await postSiteForm(
      a.base,
      "/alertes/confirmer",
      { jeton: confirmLink![1] },
      "",
      clientAddress(7002),
    );
    expect(confirmed.status).toBe(200);
    expect(decodeHtml(await confirmed.text())).toContain(
      "Nous vous écrirons une seule fois, dès que « Serveur Alerte 64 » sera de nouveau disponible.",
    );

    // A second address asks and never confirms.
    await postSiteForm(
      b.base,
      `/alertes?offre=${SLUG}`,
      { email: "paul@example.fr" },
      "",
      clientAddress(7003),
    );
    await smtp.waitForMails(2);

    const list = decodeHtml(
      await (await fetch(`${a.base}/admin/offers?q=ALR-064`, { headers: { cookie } })).text(),
    );
    expect(list).toContain("1 alerte en attente");
    const editor = decodeHtml(
      await (await fetch(`${a.base}/admin/offers/${offerId}`, { headers: { cookie } })).text(),
    );
    expect(editor).toContain("1 alerte en attente");
  });

  it("the offer back in stock: exactly one mail, to the confirmed address, with its price and link", async () => {
    const before = smtp.mails.length;
    expect((await saveOffer({ delivery: "stock_24h" })).status).toBe(302);
    const [mail] = (await smtp.waitForMails(before + 1)).slice(before);
    expect(await settledQueue(database.url, "mail_outbox", "sent")).toEqual([
      expect.objectContaining({ status: "sent", n: 3 }),
    ]);
    await sleep(500);
    expect(smtp.mails).toHaveLength(before + 1);
    expect(mail.parsed.to?.[0]?.address?.toLowerCase()).toBe("jeanne@example.fr");
    expect(mail.parsed.subject).toBe("De nouveau disponible : Serveur Alerte 64");
    expect(mail.parsed.text).toContain("En stock — livraison sous 24 h");
    expect(mail.parsed.text).toMatch(/Prix : 199,99\s€ HT\/mois/);
    expect(mail.parsed.text).toMatch(new RegExp(`http://127\\.0\\.0\\.1:\\d+/offers/${SLUG}\n`));
    expect(mailsTo("paul@example.fr")).toHaveLength(1);
    const list = decodeHtml(
      await (await fetch(`${a.base}/admin/offers?q=ALR-064`, { headers: { cookie } })).text(),
    );
    expect(list).not.toContain("alerte en attente");
  });

  it("a second change mails nothing; the unsubscribe link works in one click (RFC 8058)", async () => {
    const before = smtp.mails.length;
    expect((await saveOffer({ delivery: "sold_out" })).status).toBe(302);
    expect((await saveOffer({ delivery: "stock_72h" })).status).toBe(302);
    await sleep(1000);
    expect(smtp.mails).toHaveLength(before);
    expect(await sql("select 1 from mail_outbox")).toHaveLength(3);

    // Every mail's link works until the alert is gone: the availability mail's, and the
    // confirmation mail's (sent before it, with another token), which is the one clicked here.
    const [first, last] = mailsTo("Jeanne@Example.fr");
    const newest = TOKEN_LINK("/alertes/desinscription").exec(last.parsed.text ?? "");
    const link = TOKEN_LINK("/alertes/desinscription").exec(first.parsed.text ?? "");
    expect(link).not.toBeNull();
    expect(newest?.[1]).not.toBe(link?.[1]);
    expect(decodeHtml(await (await fetch(newest![0])).text())).toContain("Me désinscrire");
    const page = await fetch(link![0]);
    expect(decodeHtml(await page.text())).toContain("Me désinscrire");
    // What a mail provider's server posts (RFC 8058): no cookie, no Origin, no token in the body.
    const oneClick = await fetch(link![0], {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
      redirect: "manual",
    });
    expect(oneClick.status).toBe(200);
    expect(decodeHtml(await oneClick.text())).toContain("Alerte supprimée");
    expect(
      await sql("select 1 from offer_alerts where lower(email) = 'jeanne@example.fr'"),
    ).toHaveLength(0);
    // Its mails went with it; the link now leads nowhere.
    expect(await sql("select 1 from mail_outbox")).toHaveLength(1);
    expect((await fetch(link![0])).status).toBe(404);
    expect((await fetch(newest![0])).status).toBe(404);
    expect(await sql("select 1 from offer_alert_links")).toHaveLength(1);
  });

  it("purges unconfirmed alerts after 7 days", async () => {
    await sql(
      "update offer_alerts set created_at = now() - interval '8 days' where lower(email) = 'paul@example.fr'",
    );
    const run = await runScript("contacts-purge", [], { DATABASE_URL: database.url });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("1 non confirmée(s) depuis 7 jours, 0 confirmée(s) depuis 6 mois");
    expect(await sql("select 1 from offer_alerts")).toHaveLength(0);
  });
});
