import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { pdfText } from "../support/pdf-text";
import { delayScripts, expect, noJs, test } from "./fixtures";
import { LAYOUT, NEEDS_JS } from "./tags";

// Issue 21 on the demo catalogue: configure an offer, see the price follow, carry it to the
// contact form; filter by datacenter and availability. Every test runs with and without
// JavaScript, on a desktop and a phone.

const priceCard = (page: Page) => page.locator("[data-offer-price-card]");

async function update(page: Page, jsOff: boolean) {
  if (jsOff) await page.getByRole("button", { name: "Mettre à jour le prix" }).click();
}

test(
  "a choice made while the page's scripts still load gives its price once they run",
  { tag: NEEDS_JS },
  async ({ page }) => {
    await delayScripts(page); // the visitor acts before the scripts run
    await page.goto("/offers/epyc-performance-64", { waitUntil: "commit" });
    await page
      .getByRole("form", { name: "Configurer" })
      .getByRole("radio", { name: /512 Go/ })
      .check();
    await expect(page).toHaveURL(/o0=1/);
    await expect(priceCard(page)).toContainText(/1\s019,99\s€ HT/);
  },
);

test(
  "configures an offer, the price follows, the configuration goes to the request",
  { tag: LAYOUT },
  async ({ page }, testInfo) => {
    const jsOff = noJs(testInfo);
    await page.goto("/offers/epyc-performance-64");
    const configure = page.getByRole("form", { name: "Configurer" });
    await expect(configure.getByText(/\+120,00\s€ HT\/mois/)).toBeVisible();
    await expect(priceCard(page)).toContainText(/899,99\s€ HT/);

    await configure.getByRole("radio", { name: /512 Go/ }).check();
    await update(page, jsOff);
    await expect(page).toHaveURL(/o0=1/);
    await expect(priceCard(page)).toContainText(/1\s019,99\s€ HT/);
    await expect(priceCard(page)).toContainText(/soit 1\s223,99\s€ TTC\/mois/);

    await configure.getByLabel(/IPv4 supplémentaires/).fill("4");
    await update(page, jsOff);
    await expect(page).toHaveURL(/o2=4/);
    await expect(priceCard(page)).toContainText(/1\s027,99\s€ HT/);
    await expect(priceCard(page)).toContainText(/Frais de mise en service : 69,00\s€ HT/);

    // The quote of this configuration: its link follows the card (swapped in with JavaScript).
    const quoteLink = priceCard(page).getByRole("link", { name: "Télécharger le devis (PDF)" });
    await expect(quoteLink).toHaveAttribute("href", /\/devis\.pdf\?o0=1&o2=4$/);
    const [download] = await Promise.all([page.waitForEvent("download"), quoteLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^devis-epyc-performance-64-[\d-]+\.pdf$/);
    const quote = await pdfText(readFileSync(await download.path()));
    for (const amount of ["1 027,99 €", "1 233,59 €", "69,00 €", "+120,00 €", "512 Go"]) {
      expect(quote).toContain(amount);
    }
    await expect(priceCard(page)).toContainText(/soit 1\s233,59\s€ TTC\/mois/);

    // The address is the configuration: reloading it gives the same price.
    await page.reload();
    await expect(priceCard(page)).toContainText(/1\s027,99\s€ HT/);

    await priceCard(page).getByRole("link", { name: "Commander maintenant" }).click();
    await expect(page).toHaveURL(/\/contact\?offer=\d+&configuration=/);
    const chosen = page.getByRole("list", { name: "Configuration choisie" });
    await expect(chosen).toContainText("Mémoire : 512 Go (+120,00");
    await expect(chosen).toContainText("IPv4 supplémentaires : 4");
    await expect(chosen).toContainText(/Total : 1\s027,99\s€ HT\/mois/);
    await expect(page.getByText("Elle vaut pour cette offre")).toBeVisible();
    // A refused post (a name of spaces passes the browser's check, not the server's) keeps it.
    await page.getByLabel("Nom complet *").fill("   ");
    await page.getByLabel("Email *").fill("config@example.fr");
    await page.getByLabel("Message *").fill("Je souhaite cette configuration.");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(page.getByText("Champs manquants").first()).toBeVisible();
    await expect(chosen).toContainText("Mémoire : 512 Go (+120,00");
    await expect(chosen).toContainText("IPv4 supplémentaires : 4");
    await page.getByLabel("Nom complet *").fill(`Configuration ${testInfo.project.name}`);
    await page.getByLabel("Email *").fill("config@example.fr");
    await page.getByLabel("Message *").fill("Je souhaite cette configuration.");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(page.getByText("Message envoyé !")).toBeVisible();
  },
);

test("an exhausted offer stays visible and can be asked about", async ({ page }) => {
  await page.goto("/offers/epyc-bare-metal-9254");
  await expect(priceCard(page)).toContainText("Épuisé");
  await expect(priceCard(page).getByRole("link", { name: "Commander maintenant" })).toHaveCount(0);
  await priceCard(page).getByRole("link", { name: "Demander des informations" }).click();
  await expect(page).toHaveURL(/\/contact\?offer=\d+/);
});

test("filters by datacenter and availability, in the URL", async ({ page }, testInfo) => {
  const jsOff = noJs(testInfo);
  const titles = page.getByRole("main").getByRole("heading", { level: 2 });
  await page.goto("/offers");
  await page.getByLabel("Datacenter").selectOption("strasbourg");
  if (jsOff) await page.getByRole("button", { name: "Appliquer les filtres" }).click();
  await expect(page).toHaveURL(/\/offers\?location=strasbourg$/);
  await expect(titles).toHaveText([
    "Ryzen Gaming 7950X",
    "GPU Calcul A4000",
    "LOA Flex Sans Engagement",
    "EPYC Bare Metal 9254",
  ]);
  await expect(page.getByRole("main")).toContainText("Épuisé");
  await expect(page.getByRole("main")).toContainText("Sur commande — 21 jours");

  await page.getByLabel("Livrable immédiatement").check();
  if (jsOff) await page.getByRole("button", { name: "Appliquer les filtres" }).click();
  await expect(page).toHaveURL(/\/offers\?location=strasbourg&available=1$/);
  await expect(titles).toHaveText(["Ryzen Gaming 7950X", "LOA Flex Sans Engagement"]);
});

test(
  "simulates a lease: the chosen duration gives the rent, the option and the total",
  { tag: LAYOUT },
  async ({ page }, testInfo) => {
    await page.goto("/offers/loa-pme-36-mois");
    await expect(priceCard(page)).toContainText(/409,50\s€ HT/); // the offer's 36 months first
    await page.getByLabel("Durée").selectOption("48");
    await update(page, noJs(testInfo));
    await expect(page).toHaveURL(/duree=48/);
    await expect(priceCard(page)).toContainText(/322,40\s€ HT/);
    await expect(priceCard(page)).toContainText(/Option d'achat : 195,00\s€ HT/);
    await expect(priceCard(page)).toContainText(
      /Coût total : 15\s670,20\s€ HT \(soit 18\s804,24\s€ TTC\)/,
    );
    await expect(priceCard(page)).toContainText(
      "réservée aux professionnels, sous réserve d'acceptation du dossier par Exemple Leasing SA",
    );
  },
);
