import type { Page } from "@playwright/test";
import { SIREN_MESSAGES } from "../../app/lib/siren";
import { expect, noJs, test } from "./fixtures";

// The buyer's company on the contact form (issue 29), with and without JavaScript (projects
// desktop and desktop-nojs): an LOA offer is leased to businesses only, so its request needs a
// SIREN; a wrong SIREN is refused, saying so; a right one is taken, and the N° TVA computed from it
// shows under the field (as it is typed with JavaScript, after a refused post without).

/** A SIREN whose Luhn key is right (app/lib/siren.ts), its VAT number, and the same with a wrong key. */
const SIREN = "732 829 320";
const VAT = "FR44732829320";
const WRONG_SIREN = "732829321";

const SENT = /\/contact\/merci\?ref=DEM-\d{4}-\d{5}$/;

async function send(page: Page) {
  await page.getByRole("button", { name: "Envoyer le message" }).click();
}

test("an LOA request needs a right SIREN, and shows its N° TVA", async ({ page }, testInfo) => {
  const mark = `${testInfo.project.name}-${Date.now()}`;
  await page.goto("/offers/loa-pme-36-mois");
  await page.getByRole("link", { name: "Demander des informations" }).click();
  await expect(page).toHaveURL(/\/contact\?offer=\d+/);
  const form = page.getByRole("form", { name: "Formulaire de contact" });
  await expect(form.locator("select[name=offer] option:checked")).toContainText("LOA PME 36 mois");

  const siren = form.getByLabel("SIREN", { exact: true });
  const sirenError = form.locator("#siren-error");
  const vat = form.locator("output");

  await form.getByLabel("Nom complet *").fill(`Société ${mark}`);
  await form.getByLabel("Email *").fill(`achat-${mark}@example.fr`);
  await form.getByLabel("Société", { exact: true }).fill("ACME SAS");
  await form.getByLabel("Message *").fill("Bonjour, un devis pour cette location svp.");

  // No SIREN: refused, the field says why, what was typed is kept.
  await send(page);
  await expect(page).toHaveURL(/\/contact$/);
  await expect(sirenError).toHaveText(SIREN_MESSAGES.requiredForLease);
  await expect(siren).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Société", { exact: true })).toHaveValue("ACME SAS");
  await expect(form.locator("select[name=offer] option:checked")).toContainText("LOA PME 36 mois");
  await expect(vat).toHaveText("");

  // A wrong key: refused, naming the SIREN; no VAT number for it.
  await siren.fill(WRONG_SIREN);
  await expect(vat).toHaveText("");
  await send(page);
  await expect(page).toHaveURL(/\/contact$/);
  await expect(sirenError).toHaveText(SIREN_MESSAGES.invalid);
  await expect(sirenError).toContainText("SIREN");
  await expect(siren).toHaveValue(WRONG_SIREN);
  await expect(vat).toHaveText("");

  await siren.fill(SIREN);
  if (!noJs(testInfo)) {
    // With JavaScript the VAT number follows the typing.
    await expect(vat).toHaveText(VAT);
    await siren.fill("73282932");
    await expect(vat).toHaveText("");
    await siren.pressSequentially("0");
    await expect(vat).toHaveText(VAT);
    await siren.fill(SIREN); // spaces as people type them
    await expect(vat).toHaveText(VAT);
  }
  // A post refused for another reason (the message emptied, the browser's check off): the page
  // comes back with the VAT number of the SIREN kept, JavaScript or not.
  const message = form.getByLabel("Message *");
  await message.fill("");
  await form.evaluate((element) => element.setAttribute("novalidate", ""));
  await send(page);
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByText("Champs manquants").first()).toBeVisible();
  await expect(sirenError).toHaveCount(0);
  await expect(siren).toHaveValue(SIREN);
  await expect(vat).toHaveText(VAT);

  // Right SIREN, full form: sent.
  await message.fill("Bonjour, un devis pour cette location svp.");
  await send(page);
  await expect(page).toHaveURL(SENT);
  await expect(page.getByRole("heading", { name: "Message envoyé !" })).toBeVisible();
});
