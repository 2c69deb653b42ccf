import type { Page } from "@playwright/test";
import { E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { fillOffer, offerItem, openAsAdmin, stamp } from "./admin-support";
import { expect, noJs, test } from "./fixtures";

// The offer list (pages, search, filters) and the editor pages, with and without JavaScript.
// Offers made here are inactive, so the public catalogue the public spec counts stays the same.

/** Creates inactive offers through the editor page's action, as the site's own form would. */
async function createOffers(
  page: Page,
  offers: { title: string; reference: string; type?: "dedicated" | "loa" }[],
) {
  for (const offer of offers) {
    const answer = await page.request.post("/admin/offers/new", {
      headers: { Origin: E2E_ADMIN_BASE_URL },
      form: {
        title: offer.title,
        reference: offer.reference,
        type: offer.type ?? "dedicated",
        cpu: "Intel Xeon E-2388G",
        ram: "64 Go",
        storage: "2 × 1 To NVMe",
        price: "79.99",
      },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(302);
  }
}

async function search(page: Page, fields: { q?: string; type?: string; status?: string }) {
  const filters = page.getByRole("search", { name: "Filtrer les offres" });
  if (fields.q !== undefined) await filters.getByLabel("Rechercher").fill(fields.q);
  if (fields.type !== undefined) await filters.getByLabel("Type").selectOption(fields.type);
  if (fields.status !== undefined) await filters.getByLabel("Statut").selectOption(fields.status);
  await filters.getByRole("button", { name: "Filtrer" }).click();
  // Wait for the list of this search (the form is rebuilt for each list address).
  await expect(page).toHaveURL((url) =>
    Object.entries(fields).every(([key, value]) => (url.searchParams.get(key) ?? "") === value),
  );
}

const items = (page: Page) =>
  page.getByRole("region", { name: "Liste des offres" }).getByRole("listitem");

test("the offer list pages, searches and filters, in the URL", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const id = stamp(testInfo).toLowerCase();
  await openAsAdmin(page, "/admin/offers");
  await createOffers(page, [
    ...Array.from({ length: 52 }, (_, i) => ({
      title: `Lot ${id} n${String(i).padStart(2, "0")}`,
      reference: `LOT-${id}-${i}`,
      type: i % 4 === 0 ? ("loa" as const) : ("dedicated" as const),
    })),
    { title: `Remise 100% ${id}`, reference: `PCT-${id}` },
    { title: `Remise 1000 ${id}`, reference: `MIL-${id}` },
    { title: `Serveur a_b ${id}`, reference: `UND-${id}` },
  ]);

  // Search: 55 matches on two pages, newest first.
  await search(page, { q: id });
  await expect(page).toHaveURL(`/admin/offers?q=${encodeURIComponent(id)}`);
  await expect(page.getByText(/^55 offres — page 1 sur 2$/)).toBeVisible();
  await expect(items(page)).toHaveCount(50);
  await expect(items(page).first()).toContainText(`Serveur a_b ${id}`);
  await page.getByRole("link", { name: "Suivant" }).click();
  await expect(page).toHaveURL(`/admin/offers?q=${encodeURIComponent(id)}&page=2`);
  await expect(items(page)).toHaveCount(5);
  await expect(items(page).last()).toContainText(`Lot ${id} n00`);
  await expect(page.getByRole("link", { name: "Suivant" })).toHaveCount(0);
  await page.getByRole("link", { name: "Précédent" }).click();
  await expect(items(page)).toHaveCount(50);

  // % and _ are plain characters, not wildcards.
  await search(page, { q: `100% ${id}` });
  await expect(items(page)).toHaveCount(1);
  await expect(items(page)).toContainText(`Remise 100% ${id}`);
  await search(page, { q: `a_b ${id}` });
  await expect(items(page)).toHaveCount(1);
  // By reference and by slug too.
  await search(page, { q: `mil-${id}` });
  await expect(items(page)).toContainText(`Remise 1000 ${id}`);
  await search(page, { q: `lot-${id}-n07` });
  await expect(items(page)).toHaveCount(1);
  await expect(items(page)).toContainText(`/offers/lot-${id}-n07`);

  // Filters, combined with the search, kept in the URL and in the form.
  await search(page, { q: `lot ${id}`, type: "loa", status: "inactive" });
  await expect(page).toHaveURL(
    `/admin/offers?q=${encodeURIComponent(`lot ${id}`).replace(/%20/g, "+")}&type=loa&status=inactive`,
  );
  await expect(page.getByText(/^13 offres$/)).toBeVisible();
  await expect(page.getByLabel("Type")).toHaveValue("loa");
  await expect(page.getByLabel("Statut")).toHaveValue("inactive");
  await search(page, { status: "active" });
  await expect(
    page.getByText("Aucune offre ne correspond à vos critères de recherche."),
  ).toBeVisible();
  await page
    .getByRole("region", { name: "Liste des offres" })
    .getByRole("link", { name: "Effacer les filtres" })
    .click();
  await expect(page).toHaveURL(/\/admin\/offers$/);
  await expect(page.getByLabel("Rechercher")).toHaveValue("");

  // Junk in the URL is ignored.
  const junk = await page.goto("/admin/offers?page=-3&type=vps&status=%00&q=%25%25");
  expect(junk?.status()).toBe(200);

  // Show an offer from page 2, then hide it again: the list stays where it was.
  await page.goto(`/admin/offers?q=${encodeURIComponent(id)}&page=2`);
  const target = offerItem(page, `LOT-${id}-1`).filter({ hasNotText: `LOT-${id}-1` + "0" });
  await target.getByRole("button", { name: `Activer l'offre Lot ${id} n01` }).click();
  await expect(page.getByText("L'offre est visible sur le site").last()).toBeVisible();
  await expect(page).toHaveURL(`/admin/offers?q=${encodeURIComponent(id)}&page=2`);
  await expect(target).toContainText("Actif");
  await target.getByRole("button", { name: `Désactiver l'offre Lot ${id} n01` }).click();
  await expect(page.getByText("L'offre n'est plus visible sur le site").last()).toBeVisible();
  await expect(target).toContainText("Inactif");

  // Edit from page 2: after the save, back on page 2 of the same search.
  await target.getByRole("link", { name: `Modifier l'offre Lot ${id} n01` }).click();
  await expect(page).toHaveURL(/\/admin\/offers\/\d+\?returnTo=/);
  await page.getByLabel("Prix (€/mois) *").fill("88");
  await page.getByRole("button", { name: "Enregistrer les modifications" }).click();
  await expect(page.getByText("L'offre a été mise à jour avec succès").last()).toBeVisible();
  await expect(page).toHaveURL(`/admin/offers?q=${encodeURIComponent(id)}&page=2`);
  await expect(target).toContainText(/88,00\s€\sHT\/mois/);
});

test("the editor pages: create with a preview, duplicate, back to the list", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const id = stamp(testInfo).toLowerCase();
  const title = `Éditeur ${id}`;
  const reference = `EDT-${id}`;
  const listUrl = `/admin/offers?q=${encodeURIComponent(id)}`;
  await openAsAdmin(page, listUrl);
  await expect(
    page.getByText("Aucune offre ne correspond à vos critères de recherche."),
  ).toBeVisible();

  await page.getByRole("link", { name: "Nouvelle offre" }).click();
  await expect(page).toHaveURL(`/admin/offers/new?returnTo=${encodeURIComponent(listUrl)}`);
  await expect(page.getByRole("heading", { name: "Créer une nouvelle offre" })).toBeVisible();
  await fillOffer(page, { title, reference, price: "149.5" });
  await page.getByLabel("Offre active").uncheck();
  const description = page.getByLabel("Description (markdown)");
  await description.fill("## Points forts\n\n**Rapide** et <script>alert(1)</script> sûr.");
  const preview = page.getByRole("region", { name: "Aperçu de la description" });
  await page.getByRole("button", { name: "Prévisualiser" }).click();
  await expect(preview.getByRole("heading", { name: "Points forts" })).toBeVisible();
  await expect(preview.locator("strong")).toHaveText("Rapide");
  // Raw HTML is never rendered.
  await expect(preview.locator("script")).toHaveCount(0);
  // Nothing typed is lost, nothing is saved.
  await expect(page.getByLabel("Titre *", { exact: true })).toHaveValue(title);
  await expect(page.getByLabel("Référence *")).toHaveValue(reference);
  await expect(page.getByLabel("Offre active")).not.toBeChecked();
  if (noJs(testInfo)) {
    await expect(page).toHaveURL(/\/admin\/offers\/new\?returnTo=/);
  } else {
    // With JavaScript the preview follows the typing.
    await description.fill("Texte *en italique*");
    await expect(preview.locator("em")).toHaveText("en italique");
  }
  await page.getByRole("button", { name: "Créer l'offre" }).click();
  await expect(page.getByText("L'offre a été créée avec succès").last()).toBeVisible();
  await expect(page).toHaveURL(listUrl);
  await expect(offerItem(page, reference)).toContainText("Inactif");
  const slug = `editeur-${id}`;
  await expect(offerItem(page, reference)).toContainText(`/offers/${slug}`);

  // Duplicate: a copy title the administrator can change, and a new slug by the spec's rule.
  await offerItem(page, reference)
    .getByRole("link", { name: `Dupliquer l'offre ${title}` })
    .click();
  await expect(page).toHaveURL(/\/admin\/offers\/new\?from=\d+&returnTo=/);
  await expect(page.getByText(`Copie de « ${title} »`)).toBeVisible();
  await expect(page.getByLabel("Titre *", { exact: true })).toHaveValue(`${title} (copie)`);
  await expect(page.getByLabel("Référence *")).toHaveValue(reference);
  await expect(page.getByLabel("Prix (€/mois) *")).toHaveValue("149.50");
  await expect(page.getByLabel("Slug (adresse de la page)")).toHaveValue(`${slug}-copie`);
  await page.getByLabel("Référence *").fill(`${reference}-B`);
  await page.getByRole("button", { name: "Créer l'offre" }).click();
  await expect(page.getByText("L'offre a été créée avec succès").last()).toBeVisible();
  await expect(page).toHaveURL(listUrl);
  await expect(offerItem(page, `${reference}-B`)).toContainText(`${title} (copie)`);
  await expect(offerItem(page, `${reference}-B`)).toContainText(`/offers/${slug}-copie`);

  // A second copy of the same offer gets the -1 suffix.
  await offerItem(page, `${reference}-B`).first();
  await page.goto(
    (await offerItem(page, reference)
      .filter({ hasNotText: `${reference}-B` })
      .getByRole("link", { name: `Dupliquer l'offre ${title}` })
      .getAttribute("href"))!,
  );
  await page.getByRole("button", { name: "Créer l'offre" }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(page.getByText(`/offers/${slug}-copie-1`)).toBeVisible();

  // Cancel goes back to the list where the administrator was.
  await offerItem(page, `${reference}-B`)
    .getByRole("link", { name: `Modifier l'offre ${title} (copie)` })
    .click();
  await expect(page.getByRole("heading", { name: "Modifier l'offre" })).toBeVisible();
  await page.getByRole("link", { name: "Annuler" }).click();
  await expect(page).toHaveURL(listUrl);

  // Unknown or malformed offers: the 404 page.
  for (const path of [
    "/admin/offers/999999",
    "/admin/offers/abc",
    "/admin/offers/new?from=999999",
  ]) {
    const answer = await page.goto(path);
    expect(answer?.status(), path).toBe(404);
    await expect(page.getByText("Cette offre n'existe plus.")).toBeVisible();
  }
});

test("an LOA offer with a financed amount shows the scale's rent, read-only, and how", async ({
  page,
}, testInfo) => {
  const id = stamp(testInfo).toLowerCase();
  await openAsAdmin(page, "/admin/offers");
  // Inactive (no isActive): the public catalogue stays as the public specs count it.
  const answer = await page.request.post("/admin/offers/new", {
    headers: { Origin: E2E_ADMIN_BASE_URL },
    form: {
      title: `Financée ${id}`,
      reference: `FIN-${id}`,
      type: "loa",
      cpu: "Intel Xeon Gold 5318Y",
      ram: "256 Go",
      storage: "4 × 1,92 To SSD",
      price: "412,50",
      loaPurchaseOption: "150",
      financedAmount: "13 000",
      leaseDurations: "24, 36, 48",
      loaMonths: "36",
    },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(302);
  await page.goto(`/admin/offers?q=${encodeURIComponent(`FIN-${id}`)}`);
  await offerItem(page, `FIN-${id}`)
    .getByRole("link", { name: `Modifier l'offre Financée ${id}` })
    .click();
  // The demo's Barème LOA: 13 000 € × 0,03150 at 36 months, option 1,5 %.
  const price = page.getByLabel("Prix (€/mois)", { exact: true });
  await expect(price).toHaveValue("409.50");
  await expect(price).toHaveAttribute("readonly", "");
  await expect(page.getByLabel("Option d'achat (€ HT)")).toHaveValue("195.00");
  await expect(page.locator("#offer-lease-price")).toHaveText(
    /^Loyer calculé : montant financé 13\s000,00\s€ HT × coefficient 36 mois du barème \(0,03150\) = 409,50\s€ HT\/mois ; option d'achat 1,50 % = 195,00\s€ HT\.$/,
  );
  if (!noJs(testInfo)) {
    // With JavaScript the computation follows the typing: 13 000 € × 0,02480 at 48 months.
    await page.getByLabel("Durée (mois)").fill("48");
    await expect(price).toHaveValue("322.40");
  }
});
