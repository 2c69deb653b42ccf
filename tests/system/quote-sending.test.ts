import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vatNumberOf } from "../../app/lib/siren";
import { createPostgresDatabase, type TestDatabase, withClient } from "../support/database";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { type ServerProcess, startServer } from "./harness/server-process";
import { hasPostgres } from "./harness/use-postgres";
import { MAIL_ENV } from "./harness/use-server";
import { pdfText } from "../support/pdf-text";
import { useServerWithMail } from "./harness/use-server";
import { findFreePort } from "./harness/ports";
import { WebhookReceiver } from "./harness/webhook-receiver";
import { decodeHtml } from "./hostile/run";
import { clientAddress, postSiteForm, signInOverHttp } from "./support";

/**
 * `Envoyer le devis` (issue 29) end to end, through the built server, a real SMTP server and a
 * webhook receiver on loopback (signatures verified with the `standardwebhooks` library): the
 * request with its company and SIREN, the quote sent by the admin form, the mail with its PDF, the
 * link followed and the quote accepted once, the status, the `quote.accepted` webhook, the PDF
 * accepted served as it was mailed.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les devis envoyés" };
const SIREN = "732829320";
const BUYER = "acheteuse@example.fr";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await new WebhookReceiver(await findFreePort()).start();
});
afterAll(async () => {
  await receiver?.stop();
});

const { server, smtp } = useServerWithMail({
  label: "quote-sending",
  admin: ADMIN,
  env: {
    TRUST_PROXY: "loopback",
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_RETRY_MAX_SECONDS: "1",
    TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  },
});

const get = (path: string, cookie = "") =>
  fetch(`${server.base}${path}`, {
    headers: {
      Accept: "text/html",
      "X-Forwarded-For": clientAddress(7),
      ...(cookie ? { cookie } : {}),
    },
  });

describe("a quote mailed from the desk, accepted online", () => {
  it("is sent, mailed with its PDF, accepted once by its link, and told to the CRM", async () => {
    expect(vatNumberOf(SIREN)).toBe("FR44732829320");
    const cookie = await signInOverHttp(server.base, ADMIN);

    // The CRM's endpoint, for the quote events, through the admin page (its secret shown once).
    const created = await postSiteForm(
      server.base,
      "/admin/webhooks",
      { intent: "create", url: receiver.url, quoteSent: "on", quoteAccepted: "on" },
      cookie,
    );
    expect(created.status).toBe(200);
    const secret = /data-webhook-secret[^>]*>(whsec_[A-Za-z0-9+/=]+)</.exec(
      await created.text(),
    )?.[1];
    expect(secret).toBeDefined();
    receiver.secret = secret!;

    // A request on an offer, with the buyer's company and SIREN.
    const { offers } = (await (await get("/api/offers")).json()) as { offers: { slug: string }[] };
    const offerPage = await (await get(`/offers/${offers[0].slug}`)).text();
    const offerId = /\/contact\?offer=(\d+)/.exec(offerPage)?.[1];
    expect(offerId).toBeDefined();
    const sent = await postSiteForm(
      server.base,
      "/contact",
      {
        name: "Jeanne Martin",
        email: BUYER,
        phone: "",
        company: "Acme Industrie",
        siren: "732 829 320",
        message: "Bonjour, un devis pour ce serveur.",
        offer: offerId!,
      },
      "",
      clientAddress(11),
    );
    expect(sent.status).toBe(303);
    const reference = /DEM-\d{4}-(\d{5})/.exec(sent.headers.get("location") ?? "");
    expect(reference).not.toBeNull();
    const id = Number(reference![1]);

    // `Envoyer le devis`: the form as the page shows it, posted with the session.
    const form = await get(`/admin/contacts/${id}/envoyer-devis`, cookie);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Envoyer le devis");
    const posted = await postSiteForm(
      server.base,
      `/admin/contacts/${id}/envoyer-devis`,
      { validity: "30", discount0: "10" },
      cookie,
    );
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toMatch(new RegExp(`^/admin/contacts/${id}`));

    // The mail to the buyer, its PDF attached: the number, the SIREN, the VAT number.
    const deadline = Date.now() + 30_000;
    const toBuyer = () =>
      smtp.mails.filter((m) => m.envelope.to.some((t) => t.toLowerCase() === BUYER));
    const quoteMail = async () => {
      for (;;) {
        const mail = toBuyer().find((m) => /Votre devis DEV-/.test(m.parsed.subject ?? ""));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error("no quote mail to the buyer");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const mail = await quoteMail();
    const number = /DEV-\d{4}-\d{5}/.exec(mail.parsed.subject ?? "")?.[0];
    expect(number).toBeDefined();
    const attachment = mail.parsed.attachments.find((a) => a.mimeType === "application/pdf");
    expect(attachment).toBeDefined();
    const content = attachment!.content;
    const bytes =
      typeof content === "string" ? Buffer.from(content, "base64") : new Uint8Array(content);
    const sentText = await pdfText(bytes);
    expect(sentText).toContain(number);
    expect(sentText.replace(/\s/g, "")).toContain(SIREN);
    expect(sentText).toContain("FR44732829320");
    expect(sentText).not.toContain("Accepté le");

    // The link of the mail: the quote's page.
    const link = /https?:\/\/[^\s"<>]+\/devis\/[A-Za-z0-9_-]{43}/.exec(mail.parsed.text ?? "")?.[0];
    expect(link).toBeDefined();
    const path = new URL(link!).pathname;
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(number);

    // `Bon pour accord`: name, function, the box ticked.
    const answer = {
      intent: "accept",
      name: "Jeanne Martin",
      role: "Directrice achats",
      agree: "on",
    };
    const accepted = await postSiteForm(server.base, path, answer, "", clientAddress(12));
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe(path);

    // The request's status on its admin page.
    const requestPage = await (await get(`/admin/contacts/${id}`, cookie)).text();
    expect(requestPage).toContain("Accepté");

    // The CRM told, the signature verified by the receiver: quote.sent, then quote.accepted.
    await receiver.waitForAccepted(2, 30_000);
    expect(receiver.rejected).toBe(0);
    const types = receiver.accepted().map((r) => r.body.type);
    expect(types).toContain("quote.sent");
    const acceptedHook = receiver.accepted().find((r) => r.body.type === "quote.accepted");
    expect(acceptedHook).toBeDefined();
    const quote = acceptedHook!.body.data.quote as {
      number: string;
      acceptedBy?: { name: string; role: string };
    };
    expect(quote.number).toBe(number);
    expect(quote.acceptedBy).toMatchObject({ name: "Jeanne Martin", role: "Directrice achats" });

    // The PDF by the link is now the one accepted, kept as bytes (issue 40): the mail's own.
    const pdf = await get(`${path}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toContain("application/pdf");
    const acceptedBytes = new Uint8Array(await pdf.arrayBuffer());
    expect(Buffer.from(acceptedBytes).equals(Buffer.from(bytes))).toBe(true);
    expect(await pdfText(acceptedBytes)).toContain(number);

    // A quote answers once: a second acceptance is refused with a page that says why.
    const again = await postSiteForm(server.base, path, answer, "", clientAddress(13));
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
    expect(await again.text()).toMatch(/déjà été accepté/);
  });

  it("renders a sent quote's PDF under the quote PDF limits: one client cannot flood it", async () => {
    const mail = smtp.mails.find((m) => /Votre devis DEV-/.test(m.parsed.subject ?? ""));
    const link = /https?:\/\/[^\s"<>]+\/devis\/[A-Za-z0-9_-]{43}/.exec(
      mail?.parsed.text ?? "",
    )?.[0];
    expect(link).toBeDefined();
    const pdfPath = `${new URL(link!).pathname}/pdf`;
    const fetchAs = (client: number) =>
      fetch(`${server.base}${pdfPath}`, { headers: { "X-Forwarded-For": clientAddress(client) } });
    // QUOTE_PDF_BURST (10 by default) in a row, then refused with a French 429 and Retry-After.
    const statuses: number[] = [];
    let refusal: Response | undefined;
    for (let i = 0; i < 14 && !refusal; i++) {
      const res = await fetchAs(40);
      statuses.push(res.status);
      if (res.status === 429) refusal = res;
      else await res.arrayBuffer();
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(refusal, `statuses: ${statuses.join(" ")}`).toBeDefined();
    expect(refusal!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await refusal!.text()).toMatch(/[a-zéè]/);
    // Another client is still served.
    const other = await fetchAs(41);
    expect(other.status).toBe(200);
    await other.arrayBuffer();
  });
});

/**
 * The expired link (issue 29), on PostgreSQL so that the test can move the quote's validity into the
 * past: the page says the quote expired and offers no answer; a forged answer is refused with a
 * French 409 and changes nothing.
 */
describe.skipIf(!hasPostgres)("a quote whose validity has ended", () => {
  let database: TestDatabase;
  let mailer: TestSmtpServer;
  let app: ServerProcess;

  beforeAll(async () => {
    database = await createPostgresDatabase("quote_expired");
    mailer = await startTestSmtpServer(await findFreePort());
    const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SMTP_URL: mailer.url };
    app = startServer({
      port: await findFreePort(),
      databaseUrl: database.url,
      env: { ...env, ...MAIL_ENV },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.stop("SIGTERM");
    await mailer?.stop();
    await database?.drop();
  });

  it("is refused: the page says it expired, an answer posted anyway gets a 409", async () => {
    const cookie = await signInOverHttp(app.base, ADMIN);
    const offerPage = await (await fetch(`${app.base}/offers/epyc-performance-64`)).text();
    const offer = /\/contact\?offer=(\d+)/.exec(offerPage)?.[1];
    expect(offer).toBeDefined();
    const visitor = { name: "Paul Durand", email: "paul@example.fr", phone: "", offer: offer! };
    const fields = { ...visitor, siren: SIREN, message: "Un devis, merci." };
    const sent = await postSiteForm(app.base, "/contact", fields, "", clientAddress(21));
    expect(sent.status).toBe(303);
    const id = Number(/DEM-\d{4}-(\d{5})/.exec(sent.headers.get("location") ?? "")?.[1]);
    const quotePath = `/admin/contacts/${id}/envoyer-devis`;
    expect((await postSiteForm(app.base, quotePath, { validity: "30" }, cookie)).status).toBe(302);
    let link: string | undefined;
    for (let i = 0; i < 300 && !link; i++) {
      const mail = mailer.mails.find((m) => /Votre devis DEV-/.test(m.parsed.subject ?? ""));
      link = /https?:\/\/[^\s"<>]+\/devis\/[A-Za-z0-9_-]{43}/.exec(mail?.parsed.text ?? "")?.[0];
      if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(link).toBeDefined();
    const path = new URL(link!).pathname;

    // Thirty-one days later, as far as the quote knows.
    await withClient(database.url, (c) =>
      c.query("update quotes set valid_until = now() - interval '1 day'"),
    );
    const page = await fetch(`${app.base}${path}`);
    const html = decodeHtml(await page.text());
    expect(html).toContain("Devis expiré");
    expect(html).not.toContain("Bon pour accord");

    const answer = { intent: "accept", name: "Paul Durand", role: "Gérant", agree: "on" };
    const refused = await postSiteForm(app.base, path, answer, "", clientAddress(22));
    expect(refused.status).toBe(409);
    expect(decodeHtml(await refused.text())).toContain("expiré");
    const [row] = await withClient(
      database.url,
      async (c) =>
        (await c.query<{ accepted_at: Date | null }>("select accepted_at from quotes")).rows,
    );
    expect(row.accepted_at).toBeNull();
    const request = await (
      await fetch(`${app.base}/admin/contacts/${id}`, { headers: { cookie } })
    ).text();
    expect(request).toContain("Devis envoyé");
  });
});
