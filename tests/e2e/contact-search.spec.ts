import type { Page, Request } from "@playwright/test";
import { expect, noJs, test } from "./fixtures";
import { NEEDS_JS, NO_JS } from "./tags";

// /contact when the catalogue is larger than CONTACT_OFFER_SELECT_MAX (the "search" projects'
// server sets 5; the demo has 12 active offers): the offer field is a search, not a selector.

const FIELD = "Offre concernée (optionnel)";

async function offerId(page: Page, reference: string): Promise<string> {
  const response = await page.request.get(`/contact/offers?q=${reference}`);
  const answer = (await response.json()) as { offers: { id: number; reference: string }[] };
  const offer = answer.offers.find((o) => o.reference === reference);
  if (!offer) throw new Error(`no active offer ${reference}`);
  return String(offer.id);
}

async function fillContact(page: Page, name: string) {
  await page.getByLabel("Nom complet *").fill(name);
  await page.getByLabel("Email *").fill("visiteur@example.fr");
  await page.getByLabel("Message *").fill("Bonjour, je souhaite un devis.");
}

/** Sends the form and returns the offer it carried. */
async function send(page: Page): Promise<string | null> {
  const posted = page.waitForRequest(
    (r: Request) => r.method() === "POST" && new URL(r.url()).pathname === "/contact",
  );
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  const body = new URLSearchParams((await posted).postData() ?? "");
  await expect(page.getByText("Message envoyé !")).toBeVisible();
  return body.get("offer");
}

test("no selector of every offer: a search field, 'Demande générale' by default", async ({
  page,
}, testInfo) => {
  await page.goto("/contact");
  await expect(page.locator("select")).toHaveCount(0);
  const search = page.getByLabel(FIELD);
  await expect(search).toBeVisible();
  await expect(page.getByText("Offre sélectionnée :")).toHaveCount(0);
  if (noJs(testInfo)) {
    await expect(search).toHaveAttribute("type", "search");
    await expect(page.getByRole("radio", { name: "Demande générale" })).toBeChecked();
    await expect(page.getByRole("button", { name: "Rechercher" })).toBeVisible();
  } else {
    await expect(page.getByRole("combobox", { name: FIELD })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    await expect(page.getByRole("button", { name: "Rechercher" })).toBeHidden();
    await expect(page.getByRole("radio")).toHaveCount(0);
  }
  await fillContact(page, "Demande générale");
  expect(await send(page)).toBe("");
});

test("?offer=ID preselects the offer above the threshold", async ({ page }, testInfo) => {
  const id = await offerId(page, "DED-EPYC-7543");
  await page.goto(`/contact?offer=${id}`);
  const box = page.locator("[data-selected-offer]");
  await expect(box).toContainText("Offre sélectionnée :");
  await expect(box).toContainText("EPYC Performance 64");
  await expect(box).toContainText("DED-EPYC-7543");
  await expect(box).toContainText(/899,99\s€\sHT\/mois/);
  if (noJs(testInfo)) {
    await expect(
      page.getByRole("radio", { name: "EPYC Performance 64 (DED-EPYC-7543)" }),
    ).toBeChecked();
  } else {
    await expect(page.getByRole("combobox", { name: FIELD })).toHaveValue(
      "EPYC Performance 64 (DED-EPYC-7543)",
    );
  }
  await fillContact(page, "Préselection");
  expect(await send(page)).toBe(id);
  // After the send the form starts again on 'Demande générale'.
  await expect(page.getByText("Offre sélectionnée :")).toHaveCount(0);
});

test.describe("without JavaScript", { tag: NO_JS }, () => {
  test("searches with a GET of the page and chooses among radio buttons", async ({ page }) => {
    await page.goto("/contact");
    await page.getByLabel(FIELD).fill("epyc");
    await page.getByRole("button", { name: "Rechercher" }).click();
    await expect(page).toHaveURL(/\/contact\?offer_q=epyc$/);
    await expect(page.getByText("4 offres trouvées")).toBeVisible();
    await expect(page.getByLabel(FIELD)).toHaveValue("epyc");
    const radios = page.getByRole("radio");
    await expect(radios).toHaveCount(5);
    await expect(page.getByRole("radio", { name: "Demande générale" })).toBeChecked();
    // The listing's search (issue 42): EPYC in the title first, then in the processor only.
    await expect(radios.nth(1)).toHaveAccessibleName("EPYC Bare Metal 9254 (DED-EPYC-9254)");
    await expect(radios.nth(3)).toHaveAccessibleName("GPU Calcul A4000 (DED-GPU-A4000)");
    await expect(page.getByRole("radio", { name: /Xeon/ })).toHaveCount(0);
    const id = await offerId(page, "DED-EPYC-9254");
    await page.getByRole("radio", { name: "EPYC Bare Metal 9254 (DED-EPYC-9254)" }).check();
    await fillContact(page, "Sans JavaScript");
    expect(await send(page)).toBe(id);
  });

  test("a search keeps the preselected offer and says when nothing matches", async ({ page }) => {
    const id = await offerId(page, "DED-EPYC-7543");
    await page.goto(`/contact?offer=${id}`);
    await page.getByLabel(FIELD).fill("introuvable");
    await page.getByLabel(FIELD).press("Enter");
    await expect(page.getByText("Aucune offre ne correspond à votre recherche.")).toBeVisible();
    await expect(
      page.getByRole("radio", { name: "EPYC Performance 64 (DED-EPYC-7543)" }),
    ).toBeChecked();
    await page.getByLabel(FIELD).fill("x");
    await page.getByRole("button", { name: "Rechercher" }).click();
    await expect(
      page.getByText("Saisissez au moins 2 caractères du titre ou de la référence."),
    ).toBeVisible();
  });
});

test.describe("with JavaScript: the combobox", { tag: NEEDS_JS }, () => {
  test("is used with the keyboard alone", async ({ page }) => {
    await page.goto("/contact");
    // The form is complete from the start: an Enter that sent it would be seen.
    await fillContact(page, "Au clavier");
    let posts = 0;
    page.on("request", (r) => {
      if (r.method() === "POST") posts++;
    });
    const combobox = page.getByRole("combobox", { name: FIELD });
    // The field before the offer's (the buyer's company, issue 29).
    await page.getByLabel("SIREN", { exact: true }).focus();
    await page.keyboard.press("Tab");
    await expect(combobox).toBeFocused();
    await page.keyboard.type("epyc");
    const listbox = page.getByRole("listbox", { name: "Offres" });
    await expect(listbox).toBeVisible();
    await expect(combobox).toHaveAttribute("aria-expanded", "true");
    await expect(combobox).toHaveAttribute("aria-controls", "offer-search-listbox");
    const options = listbox.getByRole("option");
    await expect(options).toHaveCount(5);
    await expect(options.first()).toHaveText("Demande générale");
    await expect(page.locator("[data-offer-search-status]")).toHaveText("4 offres trouvées");

    await page.keyboard.press("ArrowDown");
    await expect(combobox).toHaveAttribute("aria-activedescendant", "offer-option-0");
    await page.keyboard.press("ArrowDown");
    await expect(combobox).toHaveAttribute("aria-activedescendant", "offer-option-1");
    await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(options.nth(1)).toContainText("EPYC Bare Metal 9254 (DED-EPYC-9254)");
    // Enter chooses; it never sends the form.
    await page.keyboard.press("Enter");
    await expect(listbox).toBeHidden();
    await expect(combobox).toHaveAttribute("aria-expanded", "false");
    await expect(combobox).toHaveValue("EPYC Bare Metal 9254 (DED-EPYC-9254)");
    const box = page.locator("[data-selected-offer]");
    await expect(box).toContainText("EPYC Bare Metal 9254");
    await expect(box).toContainText(/1\s249,00\s€\sHT\/mois/);

    // Escape closes the list without changing the choice; leaving the field restores its text.
    await combobox.fill("xeon");
    await expect(options.nth(1)).toContainText("Xeon Essentiel");
    await page.keyboard.press("Escape");
    await expect(listbox).toBeHidden();
    await page.keyboard.press("Tab");
    await expect(combobox).toHaveValue("EPYC Bare Metal 9254 (DED-EPYC-9254)");

    // 'Demande générale' is the first option, also reached with the arrows.
    await combobox.focus();
    await page.keyboard.press("ArrowDown");
    await expect(combobox).toHaveAttribute("aria-activedescendant", "offer-option-0");
    await page.keyboard.press("Enter");
    await expect(combobox).toHaveValue("");
    await expect(page.getByText("Offre sélectionnée :")).toHaveCount(0);

    await combobox.fill("ded-epyc-7543");
    await expect(page.locator("[data-offer-search-status]")).toHaveText("1 offre trouvée");
    await page.keyboard.press("ArrowUp");
    await expect(combobox).toHaveAttribute("aria-activedescendant", "offer-option-1");
    await page.keyboard.press("Enter");
    await expect(combobox).toHaveValue("EPYC Performance 64 (DED-EPYC-7543)");
    expect(posts, "Enter in the combobox never sends the form").toBe(0);
    const id = await offerId(page, "DED-EPYC-7543");
    expect(await send(page)).toBe(id);
  });

  test("chooses with the mouse and announces no match", async ({ page }) => {
    await page.goto("/contact");
    const combobox = page.getByRole("combobox", { name: FIELD });
    await combobox.fill("zzzz");
    await expect(page.locator("[data-offer-search-status]")).toHaveText(
      "Aucune offre ne correspond à votre recherche.",
    );
    await expect(page.getByRole("option")).toHaveCount(1);
    await combobox.fill("loa");
    await page.getByRole("option", { name: /LOA/ }).first().click();
    await expect(page.getByText("Offre sélectionnée :")).toBeVisible();
    await expect(combobox).toHaveValue(/\(LOA-/);
  });
});
