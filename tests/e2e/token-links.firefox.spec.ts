import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "../system/harness/ports";
import { type ServerProcess, startServer } from "../system/harness/server-process";
import { expect, type FirefoxPage, pressOn, test, textOf, tick, typeInto } from "./firefox";
import { noJs } from "./fixtures";
import { mailedLinks, mailsTitled } from "./mailed-links";
import { buyerOf, requestHeader, sendQuoteFor } from "./quote-support";

// Every form behind a mailed link, in Firefox ESR, with and without JavaScript (issue 39): the
// stock alert's confirmation and unsubscription, the quote's acceptance and refusal, the password
// reset. Each page carries a secret in its address and must still post its own form (Firefox sends
// `Origin: null` under `no-referrer`). The links exist only in the mail: this spec runs its own
// built server sending to a real SMTP server on loopback. The salesperson works in Chromium.

const ADMIN = { email: "admin@example.fr", password: "le mot de passe des liens envoyés" };
const OFFER = { slug: "epyc-bare-metal-9254", title: "EPYC Bare Metal 9254" };

// One built server per worker (one per project), the file's tests in order: the password reset
// comes last, since the salesperson signs in with the first password.
test.describe.configure({ mode: "default" });

let smtp: TestSmtpServer;
let server: ServerProcess;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startTestSmtpServer(await findFreePort());
  server = await startServer({
    port: await findFreePort(),
    env: {
      SMTP_URL: smtp.url,
      NOTIFY_EMAIL: "ventes@example.fr",
      MAIL_FROM: "ServeurPro <site@example.fr>",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      ALERT_RATE_LIMIT: "1000",
      CONTACT_RATE_LIMIT: "1000",
      PUBLIC_RENDER_RATE_PER_MINUTE: "0",
      QUOTE_PDF_RATE_PER_MINUTE: "0",
    },
  }).ready(170_000);
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const heading = (page: FirefoxPage) => textOf(page.getByRole("heading", { level: 1 }));

/** Opens a mailed link: the page keeps its secret from other sites, and is not refused. */
async function open(page: FirefoxPage, link: string) {
  const response = await page.goto(link);
  expect(response?.headers()["referrer-policy"]).toBe("same-origin");
  return response;
}

test("a stock alert confirmed, then ended, from the mailed links", async ({
  firefoxPage: page,
}, testInfo) => {
  test.setTimeout(90_000);
  const email = `alerte-${testInfo.project.name}-${Date.now()}@example.fr`;
  await page.goto(`${server.base}/offers/${OFFER.slug}`);
  // The project's setting reached Firefox: the page's first script marks <html> with `js`.
  expect(await page.locator("html.js").count()).toBe(noJs(testInfo) ? 0 : 1);
  const form = page.getByRole("form", {
    name: "Me prévenir quand l'offre est de nouveau disponible",
  });
  await typeInto(form.getByLabel("Votre adresse e-mail"), email);
  await pressOn(form.getByRole("button", { name: "Me prévenir" }));
  await expect
    .poll(() => textOf(page.getByRole("status")))
    .toContain("Vérifiez votre boîte de réception");
  const links = await mailedLinks(smtp, email, ["alertConfirm", "alertUnsubscribe"]);

  await open(page, links.alertConfirm);
  await expect.poll(() => heading(page)).toBe("Confirmer mon alerte");
  await pressOn(page.getByRole("button", { name: "Confirmer mon alerte" }));
  await expect.poll(() => heading(page)).toBe("Alerte confirmée");
  expect(await textOf(page.getByRole("status"))).toContain(OFFER.title);

  await open(page, links.alertUnsubscribe);
  await expect.poll(() => heading(page)).toBe("Se désinscrire");
  await pressOn(page.getByRole("button", { name: "Me désinscrire" }));
  await expect.poll(() => heading(page)).toBe("Alerte supprimée");
  expect((await page.goto(links.alertConfirm))?.status()).toBe(404);
  await expect.poll(() => heading(page)).toBe("Lien invalide ou expiré");
});

test("a quote accepted by the buyer from the mailed link", async ({
  page: salesperson,
  firefoxPage: page,
}, testInfo) => {
  test.setTimeout(120_000);
  const buyer = buyerOf(testInfo, "Acheteuse");
  const requestUrl = await sendQuoteFor(salesperson, { base: server.base, admin: ADMIN }, buyer);
  const mail = await mailedLinks(smtp, buyer.email, ["quote"], /^Votre devis DEV-/);
  const number = /DEV-\d{4}-\d{5}/.exec(mail.subject)![0];

  await open(page, mail.quote);
  await expect.poll(() => heading(page)).toBe(`Devis ${number}`);
  const form = page.locator("form").filter({ hasText: "Bon pour accord" });
  await typeInto(form.getByLabel("Nom *"), "Jeanne Achat");
  await typeInto(form.getByLabel("Fonction *"), "Gérante");
  await tick(form.getByRole("checkbox"));
  await pressOn(form.getByRole("button", { name: "Bon pour accord" }));
  await expect.poll(() => textOf(page.getByText("Devis accepté", { exact: true }))).not.toBe("");
  expect(page.url()).toBe(mail.quote);
  expect(await textOf(page.locator("code"))).toMatch(/^[0-9a-f]{64}$/);
  expect(await page.getByRole("button", { name: "Bon pour accord" }).count()).toBe(0);

  await expect.poll(() => mailsTitled(smtp, `Devis ${number} accepté`).length).toBe(1);
  await salesperson.goto(requestUrl);
  // An LOA: accepted, its financer's file opens (issue 41).
  await expect(requestHeader(salesperson, buyer.name)).toContainText("Dossier incomplet");
});

test("a quote declined by the buyer, with a reason", async ({
  page: salesperson,
  firefoxPage: page,
}, testInfo) => {
  test.setTimeout(120_000);
  const buyer = buyerOf(testInfo, "Refus");
  const requestUrl = await sendQuoteFor(salesperson, { base: server.base, admin: ADMIN }, buyer);
  const mail = await mailedLinks(smtp, buyer.email, ["quote"], /^Votre devis DEV-/);
  const number = /DEV-\d{4}-\d{5}/.exec(mail.subject)![0];

  await open(page, mail.quote);
  const form = page.locator("form").filter({ hasText: "Motif (facultatif)" });
  await typeInto(form.getByLabel("Motif (facultatif)"), "Budget reporté à l'an prochain.");
  await tick(form.getByRole("checkbox", { name: "Je confirme refuser ce devis" }));
  await pressOn(form.getByRole("button", { name: "Refuser" }));
  await expect.poll(() => textOf(page.getByText("Devis refusé", { exact: true }))).not.toBe("");
  expect(page.url()).toBe(mail.quote);

  await expect.poll(() => mailsTitled(smtp, `Devis ${number} refusé`).length).toBe(1);
  await salesperson.goto(requestUrl);
  await expect(requestHeader(salesperson, buyer.name)).toContainText("Refusé");
});

test("a forgotten password reset from the mailed link, then used to sign in", async ({
  firefoxPage: page,
}) => {
  test.setTimeout(90_000);
  const base = server.base;
  const fresh = "la phrase choisie dans Firefox";
  await page.goto(`${base}/auth`);
  await pressOn(page.getByRole("link", { name: "Mot de passe oublié ?" }));
  await expect
    .poll(() => textOf(page.getByRole("heading", { name: "Mot de passe oublié" })))
    .not.toBe("");
  await typeInto(page.getByLabel("Email"), ADMIN.email);
  await pressOn(page.getByRole("button", { name: "Recevoir le lien" }));
  await expect
    .poll(() => textOf(page.getByText(/^Si un compte existe pour cette adresse/)))
    .not.toBe("");
  const { passwordReset: link } = await mailedLinks(
    smtp,
    ADMIN.email,
    ["passwordReset"],
    /^Réinitialisation de votre mot de passe$/,
  );

  await open(page, link);
  const form = page.getByRole("form", { name: "Nouveau mot de passe" });
  // A common password is refused, and the link still serves.
  await typeInto(form.getByLabel("Nouveau mot de passe", { exact: true }), "Password1234");
  await typeInto(form.getByLabel("Confirmer le nouveau mot de passe"), "Password1234");
  await pressOn(form.getByRole("button", { name: "Enregistrer le mot de passe" }));
  await expect
    .poll(() => textOf(page.getByText(/les plus courants ou déjà divulgués/)))
    .not.toBe("");
  await typeInto(form.getByLabel("Nouveau mot de passe", { exact: true }), fresh);
  await typeInto(form.getByLabel("Confirmer le nouveau mot de passe"), fresh);
  await pressOn(form.getByRole("button", { name: "Enregistrer le mot de passe" }));
  await expect.poll(() => page.url()).toBe(`${base}/auth`);
  await expect.poll(() => textOf(page.getByText("Mot de passe modifié"))).not.toBe("");

  await typeInto(page.getByLabel("Email"), ADMIN.email);
  await typeInto(page.getByLabel("Mot de passe"), fresh);
  await pressOn(page.getByRole("button", { name: "Se connecter" }));
  await expect.poll(() => page.url()).toBe(`${base}/admin`);
});
