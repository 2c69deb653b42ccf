import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { LAYOUT } from "./tags";

// `Me prévenir` (issue 30) on an exhausted offer, with and without JavaScript (a plain form: the
// page does not hydrate). The mails, the confirmation and the offer's return: tests/system/alerts.

const priceCard = (page: Page) => page.locator("[data-offer-price-card]");

test(
  "an exhausted offer offers `Me prévenir`: an address, the privacy line, then check your inbox",
  { tag: LAYOUT },
  async ({ page }, testInfo) => {
    await page.goto("/offers/epyc-bare-metal-9254");
    await expect(priceCard(page)).toContainText("Épuisé");
    const form = page.getByRole("form", {
      name: "Me prévenir quand l'offre est de nouveau disponible",
    });
    await expect(form).toBeVisible();
    await expect(form).toContainText("elle est effacée au plus tard 6 mois après la confirmation");
    await expect(form.getByRole("link", { name: "Politique de confidentialité" })).toHaveAttribute(
      "href",
      "/confidentialite",
    );
    await form
      .getByLabel("Votre adresse e-mail")
      .fill(`alerte-${testInfo.project.name}@example.fr`);
    await form.getByRole("button", { name: "Me prévenir" }).click();
    await expect(page).toHaveURL(/\/alertes\?offre=epyc-bare-metal-9254&envoyee=1$/);
    await expect(page.getByRole("status")).toContainText("Vérifiez votre boîte de réception");
    await expect(
      page.getByRole("heading", { level: 1, name: "Me prévenir : EPYC Bare Metal 9254" }),
    ).toBeVisible();
    await page.getByRole("link", { name: "Retour à l'offre" }).click();
    await expect(page).toHaveURL(/\/offers\/epyc-bare-metal-9254$/);
  },
);

test("an offer in stock has no `Me prévenir`; a link without its token says so", async ({
  page,
}) => {
  await page.goto("/offers/epyc-performance-64");
  await expect(priceCard(page)).toContainText("En stock");
  await expect(page.getByRole("button", { name: "Me prévenir" })).toHaveCount(0);
  const answer = await page.goto("/alertes/desinscription?jeton=inconnu");
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lien invalide ou expiré");
});
