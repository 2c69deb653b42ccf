import type { Browser, Page } from "@playwright/test";
import { SIRENS, startTestSireneServer, type TestSireneServer } from "../support/sirene";
import { findFreePort } from "../system/harness/ports";
import { type ServerProcess, startServer } from "../system/harness/server-process";
import { expect, test } from "./fixtures";
import { buyerOf } from "./quote-support";
import { NEEDS_JS, NO_JS } from "./tags";

// The company known from its SIREN (issue 41), with and without JavaScript (projects desktop and
// desktop-nojs): a built server of this spec's own, whose SIRENE_API_URL is a stand-in for the API
// Recherche d'entreprises on loopback answering its recorded answers (tests/support/sirene.ts).
// Typed with JavaScript, the SIREN names its company under the field and fills `Société`; posted
// without, the server names it before storing the request; with the API's server stopped, the
// form sends all the same.

const ADMIN = { email: "admin@example.fr", password: "le mot de passe des entreprises" };
const SENT = /\/contact\/merci\?ref=DEM-\d{4}-\d{5}$/;

// One built server per worker, the file's tests in order (the last one stops the API's server).
test.describe.configure({ mode: "default" });

let sirene: TestSireneServer;
let server: ServerProcess;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  sirene = await startTestSireneServer();
  server = await startServer({
    port: await findFreePort(),
    env: {
      SIRENE_API_URL: sirene.url,
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
  await sirene?.stop();
});

function contactForm(page: Page) {
  return page.getByRole("form", { name: "Formulaire de contact" });
}

async function fillBuyer(page: Page, buyer: { name: string; email: string }) {
  const form = contactForm(page);
  await form.getByLabel("Nom complet *").fill(buyer.name);
  await form.getByLabel("Email *").fill(buyer.email);
  await form.getByLabel("Message *").fill("Bonjour, un devis pour un serveur en LOA svp.");
}

/** The company the request of `buyer` was stored with, as its page in the administration says. */
async function storedCompanyLine(browser: Browser, buyer: { id: string; name: string }) {
  const context = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
  const page = await context.newPage();
  await page.goto(`${server.base}/admin/contacts?q=${buyer.id}`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Mot de passe").fill(ADMIN.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.getByRole("link", { name: buyer.name }).click();
  await expect(page).toHaveURL(/\/admin\/contacts\/\d+$/);
  const line = await page
    .getByText(/SIREN \d{3} \d{3} \d{3}/)
    .first()
    .textContent();
  await context.close();
  return line;
}

test(`typing a SIREN names its company and fills Société, moving nothing ${NEEDS_JS}`, async ({
  page,
}, testInfo) => {
  const buyer = buyerOf(testInfo, "Saisie");
  await page.goto(`${server.base}/contact`);
  const form = contactForm(page);
  const company = form.getByLabel("Société", { exact: true });
  const siren = form.getByLabel("SIREN", { exact: true });
  const line = form.locator("[data-company-lookup]");
  await expect(line).toHaveAttribute("aria-live", "polite");
  await fillBuyer(page, buyer);
  const message = form.getByLabel("Message *");
  const before = await message.boundingBox();

  // Eight digits ask nothing; the ninth makes a SIREN: the register's company, under the field.
  await siren.pressSequentially("73282932");
  await expect(line).toHaveText("");
  await siren.pressSequentially("0");
  await expect(line).toHaveText("ACME SAS — SAS, 12 RUE DE LA PAIX 75002 PARIS (siège)");
  await expect(company).toHaveValue("ACME SAS");
  // Its two lines were kept from the first paint: the rest of the form did not move.
  expect(await message.boundingBox()).toEqual(before);

  // Another SIREN: a closed company, said as a warning; what the script filled follows it.
  await siren.fill(SIRENS.closed);
  await expect(line).toHaveText("Cette entreprise est fermée depuis le 31/03/2023.");
  await expect(line).toHaveAttribute("data-warning", "");
  await expect(company).toHaveValue("ANCIENNE FONDERIE DUPONT");

  // A company typed by the visitor is theirs: a SIREN found later leaves it alone.
  await company.fill("ACME Groupe");
  await siren.fill("732 829 320");
  await expect(line).toHaveText("ACME SAS — SAS, 12 RUE DE LA PAIX 75002 PARIS (siège)");
  await expect(line).not.toHaveAttribute("data-warning");
  await expect(company).toHaveValue("ACME Groupe");

  // A SIREN the register does not know: nothing said, nothing filled.
  await company.fill("");
  await siren.fill(SIRENS.unknown);
  await expect(line).toHaveText("");
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(page).toHaveURL(SENT);
});

test(`a SIREN posted without a company is stored with the register's name ${NO_JS}`, async ({
  page,
  browser,
}, testInfo) => {
  const buyer = buyerOf(testInfo, "Formulaire");
  await page.goto(`${server.base}/contact`);
  const form = contactForm(page);
  await fillBuyer(page, buyer);
  await form.getByLabel("SIREN", { exact: true }).fill("732 829 320");
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(page).toHaveURL(SENT);
  expect(await storedCompanyLine(browser, buyer)).toBe(
    "ACME SAS — SIREN 732 829 320 — N° TVA FR44732829320",
  );
});

test("with the register's server stopped, the form still sends, as typed", async ({
  page,
  browser,
}, testInfo) => {
  await sirene.stop();
  const buyer = buyerOf(testInfo, "Panne");
  await page.goto(`${server.base}/contact`);
  const form = contactForm(page);
  await fillBuyer(page, buyer);
  // Never asked before: no answer kept in the server's memory.
  await form.getByLabel("SIREN", { exact: true }).fill(SIRENS.other);
  await expect(form.locator("[data-company-lookup]")).toHaveText("");
  await expect(form.getByLabel("Société", { exact: true })).toHaveValue("");
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(page).toHaveURL(SENT);
  expect(await storedCompanyLine(browser, buyer)).toBe("SIREN 555 444 330 — N° TVA FR72555444330");
});
