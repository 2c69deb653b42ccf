import { pdfBytes } from "../support/lease-documents";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "../system/harness/ports";
import { type ServerProcess, startServer } from "../system/harness/server-process";
import { expect, type FirefoxPage, pressOn, test, textOf, tick, typeInto } from "./firefox";
import { mailedLinks } from "./mailed-links";
import { buyerOf, requestHeader, sendQuoteFor } from "./quote-support";

// The buyer's side of the LOA file (issue 41) in Firefox ESR, with and without JavaScript: the
// documents uploaded from the quote's link and the delivery report signed, by the keyboard (as
// tests/e2e/firefox.ts explains). The salesperson works in Chromium; the link exists only in the
// mail, so this spec runs its own built server sending to a real SMTP server on loopback.

const ADMIN = { email: "admin@example.fr", password: "le mot de passe du dossier Firefox" };

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

const DOCUMENTS = [
  "Extrait Kbis de moins de trois mois",
  "Pièce d'identité du dirigeant",
  "RIB de la société",
  "Dernière liasse fiscale ou dernier bilan",
];

/** One document's card on the buyer's page. */
const item = (page: FirefoxPage, title: string) =>
  page
    .getByRole("list", { name: "Pièces du dossier" })
    .locator(":scope > li")
    .filter({ has: page.getByRole("heading", { name: title }) });

test("the buyer sends the documents and signs the delivery report in Firefox", async ({
  page: salesperson,
  firefoxPage: page,
}, testInfo) => {
  test.setTimeout(180_000);
  const buyer = buyerOf(testInfo, "Firefox");
  const requestUrl = await sendQuoteFor(salesperson, { base: server.base, admin: ADMIN }, buyer);
  const header = requestHeader(salesperson, buyer.name);
  const mail = await mailedLinks(smtp, buyer.email, ["quote"], /^Votre devis DEV-/);

  await page.goto(mail.quote);
  const accept = page.locator("form").filter({ hasText: "Bon pour accord" });
  await typeInto(accept.getByLabel("Nom *"), "Jeanne Achat");
  await typeInto(accept.getByLabel("Fonction *"), "Gérante");
  await tick(accept.getByRole("checkbox"));
  await pressOn(accept.getByRole("button", { name: "Bon pour accord" }));
  await expect.poll(() => textOf(page.getByText("Devis accepté", { exact: true }))).not.toBe("");

  // Each document: the file picked, then `Envoyer` from the keyboard.
  for (const [i, title] of DOCUMENTS.entries()) {
    await item(page, title)
      .locator('input[type="file"]')
      .setInputFiles({
        name: `piece-${i + 1}.pdf`,
        mimeType: "application/pdf",
        buffer: pdfBytes(title),
      });
    await pressOn(item(page, title).getByRole("button", { name: "Envoyer", exact: true }));
    await expect
      .poll(() => textOf(item(page, title).getByText("Reçu", { exact: true })))
      .toBe("Reçu");
  }
  await expect
    .poll(() => textOf(page.getByText("Dossier complet : nous le transmettons au financeur.")))
    .not.toBe("");

  // The salesperson (Chromium): sent (no financer address: the team sends the archive), agreed,
  // the equipment entered.
  await salesperson.goto(requestUrl);
  await expect(header).toContainText("Dossier complet");
  await salesperson.getByRole("link", { name: "Transmettre au financeur" }).click();
  await salesperson.getByRole("button", { name: "Transmettre", exact: true }).click();
  await expect(header).toContainText("Transmis au financeur");
  const answer = salesperson.getByRole("form", { name: "Réponse du financeur" });
  await answer.getByRole("radio", { name: "Accord" }).check();
  await answer.getByRole("button", { name: "Enregistrer la réponse" }).click();
  await expect(header).toContainText("Accord du financeur");
  const items = salesperson.getByRole("form", { name: "Matériel livré" });
  await items.getByLabel("Matériel 1", { exact: true }).fill("Serveur HPE ProLiant DL380");
  await items.getByLabel("N° de série 1", { exact: true }).fill("CZJ2150FFX");
  await items.getByRole("button", { name: "Enregistrer le matériel livré" }).click();
  await expect(salesperson.getByText("Matériel enregistré").first()).toBeVisible();

  // The buyer signs the delivery report from the same link.
  await page.goto(mail.quote);
  const report = page.getByRole("form", { name: "PV de livraison" });
  await expect
    .poll(() => textOf(page.getByRole("table", { name: "Matériel livré" })))
    .toContain("CZJ2150FFX");
  await typeInto(report.getByLabel("Nom *"), "Jeanne Achat");
  await typeInto(report.getByLabel("Fonction *"), "Gérante");
  await tick(report.getByRole("checkbox"));
  await pressOn(report.getByRole("button", { name: "Signer le PV de livraison" }));
  await expect
    .poll(() => textOf(page.getByText(/^Signé le .* par Jeanne Achat \(Gérante\)\.$/)))
    .not.toBe("");
  expect(page.url()).toBe(`${mail.quote}#livraison`);
  expect(await page.getByRole("button", { name: "Signer le PV de livraison" }).count()).toBe(0);
  const pdf = await page.request.get(`${mail.quote}/pv-de-livraison.pdf`);
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

  await salesperson.goto(requestUrl);
  await expect(header).toContainText("Livré");
});
