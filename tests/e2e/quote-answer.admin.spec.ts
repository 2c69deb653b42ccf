import type { Browser, Page } from "@playwright/test";
import { startTestImapServer, type TestImapServer } from "../support/imap";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "../system/harness/ports";
import { type ServerProcess, startServer } from "../system/harness/server-process";
import { expect, noJs, test } from "./fixtures";
import { mailedLinks, mailsTitled } from "./mailed-links";
import { buyerOf, requestHeader, sendQuoteFor } from "./quote-support";

// A request's quote sent and answered (issue 29), with and without JavaScript: `Envoyer le devis`
// from the request's page, the mail to the buyer with the personal link (a real SMTP server on
// loopback: the link's token exists only in that mail, so this spec runs its own built server
// sending to it, as password-reset.admin.spec.ts does), `Bon pour accord` on the buyer's page, a
// second answer refused, and the request's status and history following.

const ADMIN = { email: "admin@example.fr", password: "le mot de passe des devis envoyés" };

// One built server per worker: the file's tests run in order in one worker, not spread (each
// worker would start its own server).
test.describe.configure({ mode: "default" });

let smtp: TestSmtpServer;
let imap: TestImapServer;
let server: ServerProcess;

test.beforeAll(async () => {
  // A built server of its own: its start (migrations, demo data) is slow on a busy machine.
  test.setTimeout(180_000);
  smtp = await startTestSmtpServer(await findFreePort());
  // The mailbox of the buyers' replies (Dovecot on loopback), read every 5 s.
  imap = await startTestImapServer();
  server = await startServer({
    port: await findFreePort(),
    env: {
      SMTP_URL: smtp.url,
      NOTIFY_EMAIL: "ventes@example.fr",
      MAIL_FROM: "ServeurPro <site@example.fr>",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      CONTACT_RATE_LIMIT: "1000",
      PUBLIC_RENDER_RATE_PER_MINUTE: "0",
      QUOTE_PDF_RATE_PER_MINUTE: "0",
      REPLY_MAILBOX: "ventes@example.fr",
      IMAP_URL: imap.url,
      IMAP_POLL_SECONDS: "5",
    },
  }).ready();
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await imap?.stop();
});

const site = () => ({ base: server.base, admin: ADMIN });

/** A browser of the buyer's, signed in nowhere. */
async function buyerPage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    javaScriptEnabled,
  });
  return context.newPage();
}

function acceptForm(page: Page) {
  return page.locator("form").filter({ hasText: "Bon pour accord" });
}

async function accept(page: Page, name: string) {
  const form = acceptForm(page);
  await form.getByLabel("Nom *").fill(name);
  await form.getByLabel("Fonction *").fill("Gérante");
  await form.getByRole("checkbox").check();
  await form.getByRole("button", { name: "Bon pour accord" }).click();
}

test("a quote sent from the request's page, accepted once by the buyer from the mailed link", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const { id, name, email } = buyerOf(testInfo, "Acheteuse");
  const requestUrl = await sendQuoteFor(page, site(), { id, name, email });
  const header = requestHeader(page, name);
  const history = page.getByRole("list", { name: "Historique de la demande" });

  // The buyer's mail carries the link; their page shows the quote, addressed to their company.
  const { subject, quote: link } = await mailedLinks(smtp, email, ["quote"], /^Votre devis DEV-/);
  const number = /DEV-\d{4}-\d{5}/.exec(subject)![0];
  const buyer = await buyerPage(browser, !noJs(testInfo));
  // The same link opened in a second tab before answering: its form goes stale.
  const stale = await buyer.context().newPage();
  await buyer.goto(link);
  await stale.goto(link);
  await expect(buyer.getByRole("heading", { name: `Devis ${number}`, level: 1 })).toBeVisible();
  await expect(buyer.getByText("ACME SAS").first()).toBeVisible();
  await expect(buyer.getByText(/FR44732829320/).first()).toBeVisible();

  // `Bon pour accord` asks for the box to be ticked (the browser's check), then is recorded.
  const form = acceptForm(buyer);
  await form.getByLabel("Nom *").fill("Jeanne Achat");
  await form.getByLabel("Fonction *").fill("Gérante");
  await form.getByRole("button", { name: "Bon pour accord" }).click();
  expect(
    await form
      .getByRole("checkbox")
      .evaluate((box) => (box as HTMLInputElement).validity.valueMissing),
  ).toBe(true);
  await expect(buyer.getByText("Devis accepté", { exact: true })).toHaveCount(0);
  await accept(buyer, "Jeanne Achat");
  await expect(buyer).toHaveURL(link);
  await expect(buyer.getByText("Devis accepté", { exact: true })).toBeVisible();
  // The page shows the SHA-256 of the PDF kept, which its link serves (issue 40).
  await expect(buyer.getByText("Empreinte SHA-256 du PDF accepté")).toBeVisible();
  await expect(buyer.locator("code").filter({ hasText: /^[0-9a-f]{64}$/ })).toHaveCount(1);
  await expect(buyer.getByRole("button", { name: "Bon pour accord" })).toHaveCount(0);
  await expect(buyer.getByRole("button", { name: "Refuser" })).toHaveCount(0);

  // A second answer, from the tab opened before: refused, and the quote stays accepted.
  await accept(stale, "Quelqu'un d'autre");
  await expect(stale.getByText("Réponse refusée")).toBeVisible();
  await expect(stale.getByText("Ce devis a déjà été accepté")).toBeVisible();
  await expect(stale.getByText("Devis accepté", { exact: true })).toBeVisible();
  await buyer.context().close();

  // The team hears of it once (nobody owns the request: NOTIFY_EMAIL).
  await expect.poll(() => mailsTitled(smtp, `Devis ${number} accepté`).length).toBe(1);
  expect(mailsTitled(smtp, `Devis ${number} accepté`)[0]?.envelope.to).toEqual([
    "ventes@example.fr",
  ]);

  // The request follows: `Accepté`, the buyer named in its history, then the LOA's file opens
  // (issue 41): `Dossier incomplet` until the financer's documents are sent.
  await page.goto(requestUrl);
  await expect(header).toContainText("Dossier incomplet");
  await expect(history.getByRole("listitem")).toHaveCount(3);
  await expect(history.getByRole("listitem").nth(1)).toContainText("Devis envoyé → Accepté");
  await expect(history.getByRole("listitem").nth(1)).toContainText(email);
  await expect(history.getByRole("listitem").first()).toContainText("Accepté → Dossier incomplet");
  await expect(page.getByRole("list", { name: "Pièces du dossier LOA" })).toContainText(
    "Extrait Kbis de moins de trois mois",
  );
});

test("a quote declined by the buyer, with a reason: `Refusé` on the request", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const { id, name, email } = buyerOf(testInfo, "Refus");
  const requestUrl = await sendQuoteFor(page, site(), { id, name, email });
  const { subject, quote: link } = await mailedLinks(smtp, email, ["quote"], /^Votre devis DEV-/);
  const number = /DEV-\d{4}-\d{5}/.exec(subject)![0];

  const buyer = await buyerPage(browser, !noJs(testInfo));
  await buyer.goto(link);
  // `Refuser` asks for its box to be ticked too (the browser's check), then is recorded.
  const form = buyer.locator("form").filter({ hasText: "Motif (facultatif)" });
  await form.getByLabel("Motif (facultatif)").fill("Budget reporté à l'an prochain.");
  await form.getByRole("button", { name: "Refuser" }).click();
  const box = form.getByRole("checkbox", { name: "Je confirme refuser ce devis" });
  expect(await box.evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(
    true,
  );
  await expect(buyer.getByText("Devis refusé", { exact: true })).toHaveCount(0);
  await box.check();
  await form.getByRole("button", { name: "Refuser" }).click();
  await expect(buyer).toHaveURL(link);
  await expect(buyer.getByText("Devis refusé", { exact: true })).toBeVisible();
  await expect(buyer.getByRole("button", { name: "Bon pour accord" })).toHaveCount(0);
  await buyer.context().close();
  await expect.poll(() => mailsTitled(smtp, `Devis ${number} refusé`).length).toBe(1);

  await page.goto(requestUrl);
  await expect(requestHeader(page, name)).toContainText("Refusé");
  const history = page.getByRole("list", { name: "Historique de la demande" });
  await expect(history.getByRole("listitem").first()).toContainText("Devis envoyé → Refusé");
  await expect(history.getByRole("listitem").first()).toContainText(email);
});

test("a message written from the request's page reaches the buyer in the thread, the quote joined, and their answer comes back", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const { id, name, email } = buyerOf(testInfo, "Message");
  const requestUrl = await sendQuoteFor(page, site(), { id, name, email });
  const { subject: quoteSubject } = await mailedLinks(smtp, email, ["quote"], /^Votre devis DEV-/);
  const number = /DEV-\d{4}-\d{5}/.exec(quoteSubject)![0];
  const reference = (await page.locator("[data-contact-reference]").textContent())!.trim();

  const form = page.getByRole("form", { name: "Écrire au client" });
  await expect(form.getByLabel("Objet")).toHaveValue(`Votre demande ${reference}`);
  await form.getByLabel("Message").fill("Bonjour,\nLe serveur peut être livré lundi.");
  await form.getByRole("checkbox", { name: `Joindre le devis ${number} (PDF)` }).check();
  await form.getByRole("button", { name: "Envoyer au client" }).click();
  await expect(page).toHaveURL(requestUrl);
  await expect(page.getByText("Message envoyé").first()).toBeVisible();
  const conversation = page.getByRole("list", { name: "Échanges avec le client" });
  await expect(conversation.getByRole("listitem")).toHaveCount(1);
  await expect(conversation).toContainText("Le serveur peut être livré lundi.");
  await expect(conversation).toContainText(`Pièce jointe : devis ${number} (PDF)`);
  // The form is empty again, ready for the next message.
  await expect(form.getByLabel("Message")).toHaveValue("");

  // The buyer's mail: in the thread of their acknowledgement, answering to the request's address.
  await expect
    .poll(() => mailsTitled(smtp, `Votre demande ${reference}`).length, { timeout: 30_000 })
    .toBe(1);
  const [mail] = mailsTitled(smtp, `Votre demande ${reference}`);
  expect(mail.envelope.to).toEqual([email]);
  expect(mail.parsed.text).toContain("Le serveur peut être livré lundi.");
  expect(mail.parsed.replyTo?.[0]?.address).toMatch(
    new RegExp(`^ventes\\+${reference.toLowerCase()}-[0-9a-f]{16}@example\\.fr$`),
  );
  const acknowledgement = smtp.mails.find(
    (m) => m.envelope.to.includes(email) && /a bien été reçue$/.test(m.parsed.subject ?? ""),
  );
  expect(mail.parsed.inReplyTo).toBe(acknowledgement?.parsed.messageId);
  expect(mail.parsed.attachments.map((a) => a.filename)).toEqual([`${number}.pdf`]);

  // The buyer answers from their mail client: the reply comes back to the request's conversation.
  const replyTo = mail.parsed.replyTo![0].address!;
  await imap.append(
    [
      `From: Message Acheteuse <${email}>`,
      `To: ${replyTo}`,
      `Subject: Re: Votre demande ${reference}`,
      `Message-ID: <reponse-${id}@client.example>`,
      `In-Reply-To: ${mail.parsed.messageId}`,
      `References: ${mail.parsed.messageId}`,
      "Content-Type: text/plain; charset=UTF-8",
      "",
      "Lundi nous convient, merci.",
      "",
    ].join("\r\n"),
  );
  await expect
    .poll(
      async () => {
        await page.reload();
        return conversation.getByRole("listitem").count();
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe(2);
  await expect(conversation.getByRole("listitem").nth(1)).toContainText(
    `${email} au service commercial`,
  );
  await expect(conversation.getByRole("listitem").nth(1)).toContainText(
    "Lundi nous convient, merci.",
  );
  // The team hears of it once (nobody owns the request: NOTIFY_EMAIL).
  await expect
    .poll(() => mailsTitled(smtp, `Réponse du client : ${reference}`).length, { timeout: 30_000 })
    .toBe(1);
  const told = mailsTitled(smtp, `Réponse du client : ${reference}`)[0];
  expect(told.envelope.to).toEqual(["ventes@example.fr"]);
  expect(told.parsed.text).toContain("Lundi nous convient, merci.");
  await expect
    .poll(async () => {
      await page.reload();
      return conversation.getByRole("listitem").first().textContent();
    })
    .toContain(`${ADMIN.email} à ${email} · `);
  await expect(conversation.getByRole("listitem").first()).toContainText(" · envoyé");

  // The salesperson takes the request: the buyer's answer waits in their `Mes relances` (issue 40).
  await page.getByLabel("Attribuer à").selectOption({ label: ADMIN.email });
  await page.getByRole("button", { name: "Attribuer", exact: true }).click();
  await expect(page.getByText("Attribution mise à jour").first()).toBeVisible();
  await page.getByRole("link", { name: "Mes relances" }).click();
  await expect(page).toHaveURL(`${server.base}/admin/relances`);
  const mine = page.getByRole("list", { name: "Mes demandes à traiter" });
  const waiting = mine.locator(":scope > li").filter({ hasText: reference });
  await expect(waiting).toContainText("Réponse du client");
  await expect(waiting).toContainText("Le client a répondu le");

  // Answered from the request's page, it leaves the list.
  await waiting.getByRole("link", { name: new RegExp(reference) }).click();
  await expect(page).toHaveURL(requestUrl);
  await form.getByLabel("Message").fill("Parfait, nous livrons lundi.");
  await form.getByRole("button", { name: "Envoyer au client" }).click();
  await expect(conversation.getByRole("listitem")).toHaveCount(3);
  await page.goto(`${server.base}/admin/relances`);
  await expect(page.getByRole("heading", { name: "Mes relances", level: 1 })).toBeVisible();
  await expect(page.locator("main")).not.toContainText(reference);
});
