import type { Browser, Page } from "@playwright/test";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "../system/harness/ports";
import { type ServerProcess, startServer } from "../system/harness/server-process";
import { expect, noJs, test } from "./fixtures";
import { mailedLinks } from "./mailed-links";
import { buyerOf, requestHeader } from "./quote-support";

// Issue 42, with and without JavaScript: a buyer lands from a newsletter
// (?utm_source=newsletter&utm_campaign=novembre), goes through three pages and sends a request,
// with no cookie set on the public side; the request's page shows where it came from. The buyer
// opens `Ma demande` from the mailed acknowledgement (a real SMTP server on loopback: the link
// exists only in the mail), sees the status the salesperson sets, and adds a message the desk shows.

const ADMIN = { email: "admin@example.fr", password: "le mot de passe de ma demande" };

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
    },
  }).ready();
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

async function buyerPage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    javaScriptEnabled,
  });
  return context.newPage();
}

test("a newsletter's buyer follows the request from the mailed link and writes to the team", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const base = server.base;
  const { id, name, email } = buyerOf(testInfo, "Suivie");
  const buyer = await buyerPage(browser, !noJs(testInfo));

  // Three pages: the listing reached from the newsletter, an offer, the contact form.
  await buyer.goto(`${base}/offers?utm_source=newsletter&utm_campaign=novembre`);
  await expect(buyer.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/offers$/);
  await buyer.locator('a[href^="/offers/"]').first().click();
  await expect(buyer).toHaveURL(/\/offers\/[a-z0-9-]+\?src=newsletter~~novembre$/);
  await buyer.getByRole("link", { name: "Demander des informations" }).click();
  await expect(buyer).toHaveURL(/\/contact\?offer=\d+.*src=newsletter~~novembre/);
  await buyer.getByLabel("Nom complet *").fill(name);
  await buyer.getByLabel("Email *").fill(email);
  await buyer.getByLabel("Message *").fill("Bonjour, un devis pour ce serveur svp.");
  await buyer.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(buyer).toHaveURL(/\/contact\/merci\?ref=DEM-/);
  const reference = new URL(buyer.url()).searchParams.get("ref")!;
  // No cookie on the public side, whatever the pages.
  expect(await buyer.context().cookies()).toEqual([]);

  // The salesperson sees where it came from.
  await page.goto(`${base}/admin/contacts?q=${id}`);
  await expect(page).toHaveURL(/\/auth\?redirectTo=/);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Mot de passe").fill(ADMIN.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(`${base}/admin/contacts?q=${id}`);
  await page.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/admin\/contacts\/\d+$/);
  const requestUrl = page.url();
  await expect(page.getByTestId("request-origin")).toHaveText("newsletter — campagne novembre");

  // `Ma demande` from the acknowledgement: its reference and status, kept private.
  const { requestLink } = await mailedLinks(smtp, email, ["requestLink"], /a bien été reçue$/);
  const opened = await buyer.goto(requestLink);
  expect(opened?.headers()["referrer-policy"]).toBe("same-origin");
  expect(opened?.headers()["x-robots-tag"]).toContain("noindex");
  expect(opened?.headers()["cache-control"]).toContain("no-store");
  await expect(
    buyer.getByRole("heading", { name: `Ma demande ${reference}`, level: 1 }),
  ).toBeVisible();
  await expect(buyer.getByTestId("request-status")).toHaveText("En attente");

  // The salesperson moves it on; the buyer's page follows.
  await page.getByLabel(`Statut de la demande de ${name}`).selectOption("in_progress");
  if (noJs(testInfo)) await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(requestHeader(page, name)).toContainText("En cours");
  await buyer.reload();
  await expect(buyer.getByTestId("request-status")).toHaveText("En cours");

  // The buyer writes; the message is theirs on the page and reaches the desk's conversation.
  await buyer.getByLabel("Votre message").fill("Une question : <b>livraison</b> possible lundi ?");
  await buyer.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(buyer.getByText("Message envoyé", { exact: true })).toBeVisible();
  await expect(buyer.getByText("Une question : <b>livraison</b> possible lundi ?")).toBeVisible();
  expect(await buyer.context().cookies()).toEqual([]);
  await page.goto(requestUrl);
  await expect(page.getByRole("list", { name: "Échanges avec le client" })).toContainText(
    "Une question : <b>livraison</b> possible lundi ?",
  );
  await buyer.context().close();
});
