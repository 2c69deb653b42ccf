import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Browser, Download, Page } from "@playwright/test";
import { unzipSync } from "fflate";
import { pdfBytes } from "../support/lease-documents";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "../system/harness/ports";
import { type ServerProcess, startServer } from "../system/harness/server-process";
import { expect, noJs, test } from "./fixtures";
import { mailedLinks } from "./mailed-links";
import { buyerOf, requestHeader, sendQuoteFor } from "./quote-support";

// The LOA file from the accepted quote to the delivered server (issue 41), with and without
// JavaScript: the buyer sends the four documents from the quote's link (one refused by the
// salesperson with a reason, then sent again), the file is complete, the salesperson hands it to
// the financer (its address set in `Barème LOA`; the mail goes to a real SMTP server on loopback,
// so this spec runs its own built server), records the agreement and the serial numbers, the
// buyer signs the delivery report, the request is `Livré`; the archive downloaded by the test
// holds the signed quote, the documents and the summary with the right SIREN and amounts.

const ADMIN = { email: "admin@example.fr", password: "le mot de passe du dossier LOA" };

// One built server per worker: the file's test runs in one worker.
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
  }).ready();
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The demo's `LOA PME 36 mois`: 13 000 € HT financed at 0,03150 over 36 months, option 1,5 %. */
const LEASE = {
  amountFinancedHt: "13000.00",
  durationMonths: 36,
  coefficient: "0.03150",
  monthlyRentHt: "409.50",
  purchaseOptionHt: "195.00",
};

async function buyerPage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    javaScriptEnabled,
  });
  return context.newPage();
}

/** One document of the buyer's file: its card on the quote's page. */
const buyerItem = (page: Page, title: string) =>
  page
    .getByRole("list", { name: "Pièces du dossier" })
    .locator(":scope > li")
    .filter({ has: page.getByRole("heading", { name: title }) });

async function upload(page: Page, title: string, name: string, body: string) {
  const item = buyerItem(page, title);
  await item.locator('input[type="file"]').setInputFiles({
    name,
    mimeType: "application/pdf",
    buffer: pdfBytes(body),
  });
  await item.getByRole("button", { name: "Envoyer", exact: true }).click();
  await expect(page.getByText("Document reçu", { exact: true })).toBeVisible();
  await expect(buyerItem(page, title)).toContainText("Reçu");
}

async function downloaded(download: Download): Promise<Buffer> {
  return readFile((await download.path())!);
}

test("an accepted LOA quote goes from its documents to the financer, then to the signed delivery report", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const { id, name, email } = buyerOf(testInfo, "Loa");
  const requestUrl = await sendQuoteFor(
    page,
    { base: server.base, admin: ADMIN },
    { id, name, email },
  );
  const header = requestHeader(page, name);
  const financerEmail = `dossiers-${id.toLowerCase()}@financeur.example`;

  // `Barème LOA`: the financer the file goes to.
  await page.goto(`${server.base}/admin/lease`);
  const financerForm = page.getByRole("form", { name: "Financeur" });
  await financerForm.getByLabel("Nom du financeur *").fill("Leasecom Essai");
  await financerForm.getByLabel("Adresse e-mail des dossiers").fill(financerEmail);
  await financerForm.getByRole("button", { name: "Enregistrer le financeur" }).click();
  await expect(page.getByText("Financeur enregistré").first()).toBeVisible();
  await expect(financerForm.getByLabel("Adresse e-mail des dossiers")).toHaveValue(financerEmail);

  // The buyer accepts from the mailed link; the page turns into the file.
  const { subject, quote: link } = await mailedLinks(smtp, email, ["quote"], /^Votre devis DEV-/);
  const number = /DEV-\d{4}-\d{5}/.exec(subject)![0];
  const buyer = await buyerPage(browser, !noJs(testInfo));
  await buyer.goto(link);
  const accept = buyer.locator("form").filter({ hasText: "Bon pour accord" });
  await accept.getByLabel("Nom *").fill("Jeanne Achat");
  await accept.getByLabel("Fonction *").fill("Gérante");
  await accept.getByRole("checkbox").check();
  await accept.getByRole("button", { name: "Bon pour accord" }).click();
  await expect(buyer.getByText("Devis accepté", { exact: true })).toBeVisible();
  await expect(buyer.getByRole("heading", { name: "Votre dossier de financement" })).toBeVisible();
  const signedQuoteSha = (await buyer
    .locator("code")
    .filter({ hasText: /^[0-9a-f]{64}$/ })
    .textContent())!.trim();

  const kbis = "Extrait Kbis de moins de trois mois";
  await upload(buyer, kbis, "kbis-ancien.pdf", "Kbis de 2024");
  await upload(buyer, "Pièce d'identité du dirigeant", "identite.pdf", "Carte d'identité");
  await upload(buyer, "RIB de la société", "rib.pdf", "RIB ACME");

  // The salesperson refuses the Kbis, with the reason the buyer reads.
  await page.goto(requestUrl);
  await expect(header).toContainText("Dossier incomplet");
  const kbisLine = page
    .getByRole("list", { name: "Pièces du dossier LOA" })
    .locator(":scope > li")
    .filter({ hasText: kbis });
  await kbisLine.getByLabel("Motif du refus (lu par le client)").fill("Kbis de plus de trois mois");
  await kbisLine.getByRole("button", { name: "Refuser ce document" }).click();
  await expect(page.getByText("Document refusé").first()).toBeVisible();

  // The buyer sees why, sends another Kbis and the last document: the file is complete.
  await buyer.goto(link);
  await expect(buyerItem(buyer, kbis)).toContainText("Motif du refus : Kbis de plus de trois mois");
  await upload(buyer, kbis, "kbis-recent.pdf", "Kbis de ce mois");
  await upload(buyer, "Dernière liasse fiscale ou dernier bilan", "bilan.pdf", "Bilan 2025");
  await expect(
    buyer.getByText("Dossier complet : nous le transmettons au financeur."),
  ).toBeVisible();

  // `Transmettre au financeur`, confirmed (a dialog, or the page's own step without JavaScript).
  await page.goto(requestUrl);
  await expect(header).toContainText("Dossier complet");
  await page.getByRole("link", { name: "Transmettre au financeur" }).click();
  await expect(page.getByText("Transmettre le dossier au financeur ?")).toBeVisible();
  await page.getByRole("button", { name: "Transmettre", exact: true }).click();
  await expect(page.getByText("Dossier transmis").first()).toBeVisible();
  await expect(header).toContainText("Transmis au financeur");
  await expect(page.getByText(`par e-mail à ${financerEmail}`)).toBeVisible();

  // The archive, as the team downloads it.
  const archiveDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Télécharger l'archive du dossier (ZIP)" }).click();
  const archive = await downloaded(await archiveDownload);
  const entries = unzipSync(new Uint8Array(archive));
  expect(sha256(entries[`devis-signe-${number}.pdf`])).toBe(signedQuoteSha);
  const summary = JSON.parse(new TextDecoder().decode(entries["synthese.json"]));
  expect(summary.customer).toMatchObject({
    siren: "732829320",
    company: "ACME SAS",
    manager: { name: "Jeanne Achat", role: "Gérante" },
  });
  expect(summary.lease).toMatchObject(LEASE);
  expect(summary.financer).toBe("Leasecom Essai");
  const names = summary.documents.map((d: { originalName: string }) => d.originalName);
  expect(names).toEqual(["kbis-recent.pdf", "identite.pdf", "rib.pdf", "bilan.pdf"]);
  for (const document of summary.documents as { file: string; sha256: string }[]) {
    expect(sha256(entries[document.file])).toBe(document.sha256);
  }
  expect(Buffer.from(entries[summary.documents[0].file]).toString("latin1")).toContain(
    "Kbis de ce mois",
  );
  expect(Buffer.from(entries["synthese.pdf"]).subarray(0, 5).toString()).toBe("%PDF-");

  // The financer's mail carries the same archive.
  await expect
    .poll(() => smtp.mails.filter((m) => m.envelope.to.includes(financerEmail)).length, {
      timeout: 30_000,
    })
    .toBe(1);
  const mail = smtp.mails.find((m) => m.envelope.to.includes(financerEmail))!;
  expect(mail.parsed.subject).toContain(`devis ${number}`);
  expect(sha256(new Uint8Array(mail.parsed.attachments[0].content as ArrayBuffer))).toBe(
    sha256(new Uint8Array(archive)),
  );

  // The financer agrees.
  const answer = page.getByRole("form", { name: "Réponse du financeur" });
  await answer.getByRole("radio", { name: "Accord" }).check();
  await answer.getByLabel("Référence du financeur").fill("LC-E2E-42");
  await answer.getByRole("button", { name: "Enregistrer la réponse" }).click();
  await expect(page.getByText("Réponse du financeur enregistrée").first()).toBeVisible();
  await expect(header).toContainText("Accord du financeur");
  await expect(
    page.getByText(/Accord du financeur du \d{2}\/\d{2}\/\d{4}, référence LC-E2E-42/),
  ).toBeVisible();

  // The equipment delivered, with its serial numbers.
  const items = page.getByRole("form", { name: "Matériel livré" });
  await items
    .getByLabel("Matériel 1", { exact: true })
    .fill("Serveur HPE ProLiant DL380 Gen10 Plus");
  await items.getByLabel("N° de série 1", { exact: true }).fill("CZJ2150ABC");
  await items.getByLabel("Matériel 2", { exact: true }).fill("Rail de montage");
  await items.getByLabel("N° de série 2", { exact: true }).fill("RL-0042");
  await items.getByRole("button", { name: "Enregistrer le matériel livré" }).click();
  await expect(page.getByText("Matériel enregistré").first()).toBeVisible();

  // The buyer signs the delivery report from the same link, once.
  await buyer.goto(link);
  const report = buyer.getByRole("form", { name: "PV de livraison" });
  await expect(buyer.getByRole("heading", { name: "PV de livraison" })).toBeVisible();
  await expect(buyer.getByRole("table", { name: "Matériel livré" })).toContainText("CZJ2150ABC");
  await report.getByLabel("Nom *").fill("Jeanne Achat");
  await report.getByLabel("Fonction *").fill("Gérante");
  await report.getByRole("button", { name: "Signer le PV de livraison" }).click();
  const box = report.getByRole("checkbox", {
    name: "Je confirme avoir reçu ce matériel en bon état de fonctionnement",
  });
  expect(await box.evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(
    true,
  );
  await box.check();
  await report.getByRole("button", { name: "Signer le PV de livraison" }).click();
  await expect(buyer.getByText(/^Signé le .* par Jeanne Achat \(Gérante\)\.$/)).toBeVisible();
  await expect(buyer.getByRole("button", { name: "Signer le PV de livraison" })).toHaveCount(0);
  const reportSha = (await buyer
    .locator("#livraison code")
    .filter({ hasText: /^[0-9a-f]{64}$/ })
    .textContent())!.trim();
  const buyerPdf = await buyer.request.get(`${link}/pv-de-livraison.pdf`);
  expect(buyerPdf.status()).toBe(200);
  expect(sha256(await buyerPdf.body())).toBe(reportSha);
  await buyer.context().close();

  // The request is `Livré`; the team downloads the signed report, the same bytes.
  await page.goto(requestUrl);
  await expect(header).toContainText("Livré");
  await expect(page.getByText("PV de livraison signé le")).toBeVisible();
  const history = page.getByRole("list", { name: "Historique de la demande" });
  await expect(history.getByRole("listitem").first()).toContainText("Accord du financeur → Livré");
  await expect(history.getByRole("listitem").first()).toContainText(email);
  const reportDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Télécharger le PV signé (PDF)" }).click();
  expect(sha256(await downloaded(await reportDownload))).toBe(reportSha);
});
