import type { Page } from "@playwright/test";
import { E2E_ADMIN, E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { bulk, openAsAdmin, stamp } from "./admin-support";
import { expect, noJs, test } from "./fixtures";

// The administrator's work on contact requests (issues 10 and 11): the paged list with search,
// filter and pager, the request's own page (notes, status, history) and the CSV export, with and
// without JavaScript. The server's database is shared: every request carries a unique stamp and
// each test looks only at its own, through the search.

// Letters and digits only: the stamp is searched for as one word.
const searchStamp = (testInfo: { project: { name: string } }) =>
  stamp(testInfo).replace(/[^a-z0-9]/gi, "");

/** Contact requests sent as a visitor's browser without JavaScript would (no hidden field set). */
async function sendRequests(
  page: Page,
  id: string,
  count: number,
  message = (i: number) => `Demande ${i} de ${id}`,
) {
  for (let i = 1; i <= count; i++) {
    const response = await page.request.post("/contact", {
      headers: { Origin: E2E_ADMIN_BASE_URL },
      form: {
        name: `Client ${i} ${id}`,
        email: `client${i}@example.fr`,
        phone: "06 98 76 54 32",
        offer: "general",
        message: message(i),
        website: "",
      },
    });
    expect(response.status()).toBe(200);
  }
}

function rows(page: Page) {
  return page.getByRole("table", { name: "Demandes de contact" }).locator("tbody tr");
}

test.describe("contact requests in the administrator area", () => {
  test("list: search, status filter, sort and pager, all in the address", async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const id = searchStamp(testInfo);
    await sendRequests(page, id, 52);
    await openAsAdmin(page, "/admin/contacts");

    const search = page.getByLabel("Rechercher");
    if (noJs(testInfo)) {
      await search.fill(id);
      await page.getByRole("button", { name: "Filtrer" }).click();
    } else {
      // The list follows the typing, and the field keeps the focus while it does.
      await search.click();
      await search.pressSequentially(id.slice(0, 5));
      await expect(page).toHaveURL(`/admin/contacts?q=${id.slice(0, 5)}`);
      await search.pressSequentially(id.slice(5));
      await expect(search).toBeFocused();
    }
    // With JavaScript the list follows the typing; without, the form's GET lands on the same address.
    await expect(page).toHaveURL(`/admin/contacts?q=${id}`);
    await expect(page.getByRole("status")).toHaveText("52 demandes");
    await expect(rows(page)).toHaveCount(50);
    await expect(rows(page).first()).toContainText(`Client 52 ${id}`);
    await expect(page.getByLabel("Filtrer par statut")).toContainText("En attente (");

    const pager = page.getByRole("navigation", { name: "Pagination" });
    await expect(pager).toContainText("Page 1 sur 2");
    await pager.getByRole("link", { name: "Suivant" }).click();
    await expect(page).toHaveURL(`/admin/contacts?q=${id}&page=2`);
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).last()).toContainText(`Client 1 ${id}`);
    await pager.getByRole("link", { name: "Précédent" }).click();
    await expect(page).toHaveURL(`/admin/contacts?q=${id}`);

    // The columns sort the list: the date's header turns newest-first into oldest-first.
    await page.getByRole("link", { name: "Date", exact: true }).click();
    await expect(page).toHaveURL(`/admin/contacts?q=${id}&sort=oldest`);
    await expect(page.getByRole("columnheader", { name: "Date" })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    await expect(rows(page).first()).toContainText(`Client 1 ${id}`);

    // One request moves to 'En cours' by the bulk action; the filter then finds it alone.
    await bulk(page, [`Client 1 ${id}`], "En cours");
    await expect(page).toHaveURL(`/admin/contacts?q=${id}&sort=oldest`);
    await page.getByLabel("Filtrer par statut").selectOption("in_progress");
    if (noJs(testInfo)) await page.getByRole("button", { name: "Filtrer" }).click();
    await expect(page).toHaveURL(`/admin/contacts?q=${id}&status=in_progress&sort=oldest`);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("En cours");

    // Nothing matches: the spec's empty state, and a way back.
    await search.fill(`${id}-introuvable`);
    if (noJs(testInfo)) await page.getByRole("button", { name: "Filtrer" }).click();
    await expect(page.getByText("Aucune demande de contact trouvée")).toBeVisible();
    await page.getByRole("link", { name: "Effacer les filtres" }).click();
    await expect(page).toHaveURL("/admin/contacts");
  });

  test("owners: 'Attribuer à', Mes demandes, Non attribuées, bulk assignment and spam", async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const id = searchStamp(testInfo);
    const name = (i: number) => `Client ${i} ${id}`;
    await sendRequests(page, id, 3);
    await openAsAdmin(page, `/admin/contacts?q=${id}`);
    await page.getByRole("link", { name: "Non attribuées" }).click();
    await expect(page).toHaveURL(`/admin/contacts?q=${id}&owner=none`);
    await expect(rows(page)).toHaveCount(3);

    // From the request's page.
    await rows(page)
      .filter({ hasText: name(1) })
      .getByRole("link", { name: name(1) })
      .click();
    await expect(page.getByText(/^DEM-\d{4}-\d{5}$/)).toBeVisible();
    await page.getByLabel("Attribuer à").selectOption({ label: E2E_ADMIN.email });
    await page.getByRole("button", { name: "Attribuer", exact: true }).click();
    await expect(
      page.getByText("Le responsable de la demande a été mis à jour").last(),
    ).toBeVisible();
    const history = page.getByRole("list", { name: "Historique de la demande" });
    await expect(history).toContainText(`Attribuée : personne → ${E2E_ADMIN.email}`);
    await expect(page.getByLabel("Attribuer à")).toHaveValue(/^\d+$/);

    await page.goto(`/admin/contacts?q=${id}`);
    await page.getByRole("link", { name: "Mes demandes" }).click();
    await expect(page).toHaveURL(`/admin/contacts?q=${id}&owner=me`);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(name(1));
    await expect(rows(page).first()).toContainText(E2E_ADMIN.email);

    // The two others at once, from 'Non attribuées': none left there, three of mine.
    await page.getByRole("link", { name: "Non attribuées" }).click();
    await expect(rows(page)).toHaveCount(2);
    await bulk(page, [name(2), name(3)], E2E_ADMIN.email);
    await expect(page).toHaveURL(`/admin/contacts?q=${id}&owner=none`);
    await expect(page.getByText("Aucune demande de contact trouvée")).toBeVisible();
    await page.getByRole("link", { name: "Mes demandes" }).click();
    await expect(rows(page)).toHaveCount(3);

    // Marked as spam: out of the list, in the spam view.
    await bulk(page, [name(3)], "Marquer comme spam");
    await expect(rows(page)).toHaveCount(2);
    await page.goto(`/admin/contacts?q=${id}&status=spam`);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("Spam suspecté");
  });

  test("the request's page: whole message, internal note, status change and its history", async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    const id = searchStamp(testInfo);
    const long = `Début ${id}\n${"texte ".repeat(600)}\nFin du message`;
    await sendRequests(page, id, 1, () => long);
    await openAsAdmin(page, `/admin/contacts?q=${id}`);

    // The list shows no message; the request's page shows all of it.
    const card = rows(page).first();
    await expect(card).not.toContainText("Fin du message");
    await card.getByRole("link", { name: `Client 1 ${id}` }).click();
    await expect(page).toHaveURL(/\/admin\/contacts\/\d+$/);
    await expect(page.getByRole("heading", { name: `Client 1 ${id}` })).toBeVisible();
    await expect(page.getByText("Fin du message")).toBeVisible();
    await expect(page.getByText("Demande générale")).toBeVisible();
    await expect(page.getByText("Aucune note pour le moment.")).toBeVisible();

    await page.getByLabel("Note interne").fill("Rappeler mardi.\nDevis envoyé.");
    await page.getByRole("button", { name: "Ajouter la note" }).click();
    await expect(page.getByText("Note ajoutée").last()).toBeVisible();
    const notes = page.getByRole("list", { name: "Notes" });
    await expect(notes.getByRole("listitem")).toHaveCount(1);
    await expect(notes).toContainText(E2E_ADMIN.email);
    await expect(notes.locator("time")).toHaveText(/^\d{1,2} \S+ \d{4} à \d{2}:\d{2}$/);
    expect(await notes.getByText("Rappeler mardi.").innerText()).toBe(
      "Rappeler mardi.\nDevis envoyé.",
    );
    await expect(page.getByLabel("Note interne")).toHaveValue("");

    // The browser stops at 5,000 characters; past that (maxlength removed) the server refuses,
    // says why and gives back what was typed.
    await page.getByLabel("Note interne").evaluate((el) => el.removeAttribute("maxlength"));
    await page.getByLabel("Note interne").fill("x".repeat(5001));
    await page.getByRole("button", { name: "Ajouter la note" }).click();
    await expect(
      page.getByText("La note ne doit pas dépasser 5000 caractères.").first(),
    ).toBeVisible();
    await expect(page.getByLabel("Note interne")).toHaveValue("x".repeat(5001));
    await expect(notes.getByRole("listitem")).toHaveCount(1);

    await page.getByLabel(`Statut de la demande de Client 1 ${id}`).selectOption("in_progress");
    if (noJs(testInfo))
      await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect(page.getByText("Le statut de la demande a été mis à jour").last()).toBeVisible();
    const history = page.getByRole("list", { name: "Historique de la demande" });
    await expect(history.getByRole("listitem")).toHaveCount(1);
    await expect(history).toContainText("En attente → En cours");
    await expect(history).toContainText(E2E_ADMIN.email);
    await page.getByLabel(`Statut de la demande de Client 1 ${id}`).selectOption("completed");
    if (noJs(testInfo))
      await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect(history.getByRole("listitem")).toHaveCount(2);
    await expect(history.getByRole("listitem").first()).toContainText("En cours → Terminé");

    // An unknown request: the 404 page.
    const missing = await page.goto("/admin/contacts/2147483647");
    expect(missing?.status()).toBe(404);
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    const malformed = await page.goto("/admin/contacts/abc");
    expect(malformed?.status()).toBe(404);
  });

  test("export: the link keeps the filters and gives the CSV of that view", async ({
    page,
  }, testInfo) => {
    const id = searchStamp(testInfo);
    await sendRequests(page, id, 2, (i) => (i === 1 ? `=1+1 ${id}` : `Bonjour; "${id}"`));
    await openAsAdmin(page, `/admin/contacts?q=${id}&sort=oldest`);
    const link = page.getByRole("link", { name: "Exporter (CSV)" });
    await expect(link).toHaveAttribute("href", `/admin/contacts/export.csv?q=${id}&sort=oldest`);
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^demandes-contact-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const { readFile } = await import("node:fs/promises");
    const bytes = await readFile(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").split("\r\n");
    expect(lines[0]).toBe(
      "Date;Nom;Email;Téléphone;Offre;Référence;Statut;Message;Configuration;Société;SIREN;N° TVA;Source;Support;Campagne;Site référent",
    );
    // The configuration, the company, the SIREN and the VAT number are empty for these requests.
    expect(lines[1]).toMatch(
      new RegExp(
        `;Client 1 ${id};client1@example\\.fr;06 98 76 54 32;;;En attente;'=1\\+1 ${id};;;;;;;;$`,
      ),
    );
    expect(lines[2]).toMatch(new RegExp(`;Client 2 ${id};.*;"Bonjour; ""${id}""";;;;;;;;$`));
    expect(lines).toHaveLength(4);
  });
});
