import type { Page } from "@playwright/test";
import { E2E_ADMIN, E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { bulk, fillOffer, offerItem, signIn, stamp } from "./admin-support";
import { expect, test } from "./fixtures";
import { NEEDS_JS, NO_JS } from "./tags";

// The server and its database are shared by every test of the run: names carry a unique stamp,
// and the journey leaves no extra active offer behind (the public spec counts them).

async function sendContactRequest(page: Page, name: string, offerLabel?: string) {
  await page.goto("/contact");
  await page.getByLabel("Nom complet *").fill(name);
  await page.getByLabel("Email *").fill("client@example.fr");
  await page.getByLabel("Téléphone").fill("06 98 76 54 32");
  if (offerLabel) {
    await page.getByLabel("Offre concernée (optionnel)").selectOption({ label: offerLabel });
  }
  await page.getByLabel("Message *").fill("Bonjour,\nune question\nsur deux lignes.");
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(page.getByText("Message envoyé !")).toBeVisible();
}

test.describe("administrator area", () => {
  // The JavaScript journey: toasts, dialogs, instant saves.
  test(
    "the whole journey: sign in, offers, contact requests, sign out",
    { tag: NEEDS_JS },
    async ({ page }, testInfo) => {
      test.setTimeout(120_000);
      const id = stamp(testInfo);
      const title = `Serveur E2E ${id}`;
      const slug = `serveur-e2e-${id.toLowerCase()}`;
      const refA = `E2E-A-${id}`;
      const refB = `E2E-B-${id}`;
      const first = offerItem(page, refA);
      const visitor = `Visiteur ${id}`;
      // Steps share the page and run in order; a failure names its step.

      await test.step("closed to a visitor", async () => {
        // Closed to a visitor, who is sent to the sign-in screen.
        const closed = await page.goto("/admin");
        expect(closed?.status()).toBe(200);
        await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin$/);
        await expect(page.getByRole("heading", { name: "Espace Administrateur" })).toBeVisible();
        await expect(page.getByRole("heading", { name: "Connexion" })).toBeVisible();
        await expect(page.getByRole("link", { name: "← Retour au site" })).toHaveAttribute(
          "href",
          "/",
        );
      });

      await test.step("a wrong password is refused", async () => {
        // A wrong password says so without telling whether the account exists.
        await signIn(page, "not the right password");
        await expect(page.getByText("Erreur de connexion")).toBeVisible();
        await expect(page.getByText("Email ou mot de passe incorrect.")).toBeVisible();
      });

      await test.step("sign in: the dashboard, private", async () => {
        await signIn(page);
        await expect(page).toHaveURL(/\/admin$/);
        await expect(page.getByText("Connexion réussie")).toBeVisible();
        await expect(page.getByText("Bienvenue dans l'espace administrateur")).toBeVisible();
        await expect(page.getByText(`Connecté en tant que ${E2E_ADMIN.email}`)).toBeVisible();
        await expect(page.getByRole("button", { name: "Déconnexion" })).toBeVisible();
        const stats = page.getByRole("region", { name: "Statistiques" });
        for (const label of ["Total offres", "Offres actives", "Total contacts", "En attente"]) {
          await expect(stats.getByText(label, { exact: true })).toBeVisible();
        }
        await expect(stats).toContainText(/Total offres\s*\d+/);
        await expect(page.getByRole("heading", { name: "État des demandes" })).toBeVisible();
        for (const label of ["En cours", "Terminées"]) {
          await expect(page.getByRole("term").filter({ hasText: label })).toBeVisible();
        }
        await expect(page.getByRole("link", { name: "Voir les demandes" })).toHaveAttribute(
          "href",
          "/admin/contacts",
        );
        // Admin pages are private: not indexed, not cached.
        const response = await page.request.get("/admin");
        expect(response.headers()["cache-control"]).toBe("no-store");
        expect(response.headers()["x-robots-tag"]).toContain("noindex");
        await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
      });

      await test.step("create an offer", async () => {
        // Create an offer.
        await page.getByRole("link", { name: "Accéder aux offres" }).click();
        await expect(page).toHaveURL(/\/admin\/offers$/);
        await expect(page.getByRole("heading", { name: "Liste des offres" })).toBeVisible();
        await page.getByRole("link", { name: "Nouvelle offre" }).click();
        await expect(page).toHaveURL(/\/admin\/offers\/new$/);
        await expect(page.getByRole("heading", { name: "Créer une nouvelle offre" })).toBeVisible();
        await expect(page.getByLabel("Type", { exact: true })).toHaveValue("dedicated");
        await expect(page.getByLabel("Avec engagement")).not.toBeChecked();
        await expect(page.getByLabel("Offre active")).toBeChecked();
        await expect(page.getByLabel("Offre mise en avant")).not.toBeChecked();
        await expect(page.getByLabel("Description (markdown)")).toHaveAttribute("rows", "3");
        await expect(page.getByLabel("Prix (€/mois) *")).toHaveAttribute("step", "0.01");

        // Required fields are checked by the server too (browser checks switched off here).
        await page
          .getByRole("form", { name: "Créer une nouvelle offre" })
          .evaluate((form) => form.setAttribute("novalidate", ""));
        await page.getByRole("button", { name: "Créer l'offre" }).click();
        await expect(page.getByText("Veuillez remplir tous les champs obligatoires")).toBeVisible();

        await fillOffer(page, { title, reference: refA, price: "123.45" });
        await expect(page.getByLabel("Slug (adresse de la page)")).toHaveValue(slug);
        await page.getByRole("button", { name: "Créer l'offre" }).click();
        await expect(page.getByText("L'offre a été créée avec succès").last()).toBeVisible();
        await expect(page.getByRole("heading", { name: "Créer une nouvelle offre" })).toHaveCount(
          0,
        );
        await expect(first).toContainText(title);
        await expect(first).toContainText("Dédié");
        await expect(first).toContainText("Actif");
        await expect(first).toContainText(/123,45\s€\sHT\/mois/);
        await expect(first).toContainText(
          "AMD EPYC 9124 (16 cœurs) • 128 Go DDR5 • 2 × 960 Go NVMe",
        );
      });

      await test.step("a second offer with the same title", async () => {
        // A second offer with the same title gets the -1 slug.
        await page.getByRole("link", { name: "Nouvelle offre" }).click();
        await fillOffer(page, { title, reference: refB, price: "99" });
        await page.getByLabel("Type", { exact: true }).selectOption("loa");
        await page.getByRole("button", { name: "Créer l'offre" }).click();
        await expect(page.getByText("L'offre a été créée avec succès").last()).toBeVisible();
        const second = offerItem(page, refB);
        await expect(second).toContainText(`/offers/${slug}-1`);
        await expect(second).toContainText("LOA");
        await expect(first).toContainText(`/offers/${slug}`);
      });

      await test.step("both offers are public", async () => {
        // Both are public.
        await page.goto(`/offers?q=${encodeURIComponent(title)}`);
        await expect(page.getByText(/^2 offres trouvées$/)).toBeVisible();
        const detail = await page.goto(`/offers/${slug}-1`);
        expect(detail?.status()).toBe(200);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
        await expect(page.getByText(`Référence : ${refB}`)).toBeVisible();
      });

      await test.step("edit the second offer: new price, deactivated", async () => {
        // Edit the second one: new price, then deactivated.
        // Searched by title: other specs add offers in parallel and push ours past page 1.
        await page.goto(`/admin/offers?q=${encodeURIComponent(title)}`);
        await offerItem(page, refB)
          .getByRole("link", { name: `Modifier l'offre ${title}` })
          .click();
        await expect(page).toHaveURL(/\/admin\/offers\/\d+\?returnTo=/);
        await expect(page.getByRole("heading", { name: "Modifier l'offre" })).toBeVisible();
        await expect(page.getByLabel("Titre *", { exact: true })).toHaveValue(title);
        await expect(page.getByLabel("Slug (adresse de la page)")).toHaveValue(`${slug}-1`);
        await expect(page.getByLabel("Type", { exact: true })).toHaveValue("loa");
        await page.getByLabel("Prix (€/mois) *").fill("89.9");
        await page.getByLabel("Offre active").uncheck();
        await page.getByRole("button", { name: "Enregistrer les modifications" }).click();
        await expect(page.getByText("L'offre a été mise à jour avec succès").last()).toBeVisible();
        await expect(page).toHaveURL(/\/admin\/offers\?q=[^/]*$/);
        await expect(page.getByRole("heading", { name: "Modifier l'offre" })).toHaveCount(0);
        await expect(offerItem(page, refB)).toContainText("Inactif");
        await expect(offerItem(page, refB)).toContainText(/89,90\s€\sHT\/mois/);
      });

      await test.step("the inactive offer is gone from the public pages", async () => {
        // Gone from the listing, the detail page and the contact selector.
        await page.goto(`/offers?q=${encodeURIComponent(title)}`);
        await expect(page.getByText(/^1 offre trouvée$/)).toBeVisible();
        const hidden = await page.goto(`/offers/${slug}-1`);
        expect(hidden?.status()).toBe(404);
        await page.goto("/contact");
        const options = await page
          .getByLabel("Offre concernée (optionnel)")
          .locator("option")
          .allTextContents();
        expect(options).toContain(`${title} (${refA})`);
        expect(options).not.toContain(`${title} (${refB})`);
      });

      await test.step("a visitor asks about the first offer", async () => {
        // A visitor asks about the first offer.
        await sendContactRequest(page, visitor, `${title} (${refA})`);
      });

      await test.step("delete the first offer through the dialog", async () => {
        // Delete the first offer: the dialog can be cancelled, then confirmed.
        // Searched by title: other specs add offers in parallel and push ours past page 1.
        await page.goto(`/admin/offers?q=${encodeURIComponent(title)}`);
        await offerItem(page, refA)
          .getByRole("link", { name: `Supprimer l'offre ${title}` })
          .click();
        const dialog = page.getByRole("dialog", {
          name: "Êtes-vous sûr de vouloir supprimer cette offre ?",
        });
        await expect(dialog).toBeVisible();
        await dialog.getByRole("button", { name: "Annuler" }).click();
        await expect(dialog).toHaveCount(0);
        await expect(page).toHaveURL(/\/admin\/offers\?q=[^/]*$/);
        await offerItem(page, refA)
          .getByRole("link", { name: `Supprimer l'offre ${title}` })
          .click();
        await expect(dialog).toBeVisible();
        await dialog.getByRole("button", { name: "Supprimer" }).click();
        await expect(page.getByText("L'offre a été supprimée avec succès").last()).toBeVisible();
        await expect(offerItem(page, refA)).toHaveCount(0);
        await expect(offerItem(page, refB)).toHaveCount(1);
      });

      await test.step("process the contact request", async () => {
        // Process the request: filter, read, change its status.
        await page
          .getByRole("navigation", { name: "Navigation de l'administration" })
          .getByRole("link", { name: "Demandes" })
          .click();
        await expect(page).toHaveURL(/\/admin\/contacts$/);
        // Narrowed to this run: other specs send 52 requests in parallel, pushing ours past page 1.
        await page.goto(`/admin/contacts?q=${id}`);
        // Hydrated (the no-JavaScript 'Filtrer' button, hidden from the first paint, is gone from
        // the DOM): the select now applies itself.
        const noJsFilter = page.locator("button[data-nojs-only]", { hasText: "Filtrer" });
        await expect(noJsFilter).toHaveCount(0);
        await page.getByLabel("Filtrer par statut").selectOption("pending");
        await expect(page).toHaveURL(`/admin/contacts?q=${id}&status=pending`);
        // The list is a table: one row per request, its offer marked deleted (*).
        const row = page.getByRole("row").filter({ hasText: visitor });
        await expect(row).toContainText("En attente");
        await expect(row).toContainText(`${title} *`);
        await expect(row.locator("time").first()).toHaveText(/^\d{1,2} \S+ \d{4} à \d{2}:\d{2}$/);

        // The request's page: how to answer, the offer as sent, the whole message.
        await row.getByRole("link", { name: visitor }).click();
        await expect(page).toHaveURL(/\/admin\/contacts\/\d+$/);
        await expect(page.getByRole("link", { name: "client@example.fr" })).toHaveAttribute(
          "href",
          "mailto:client@example.fr",
        );
        await expect(page.getByRole("main")).toContainText("06 98 76 54 32");
        await expect(page.getByRole("main")).toContainText(`Offre supprimée : ${title} (${refA})`);
        expect(await page.getByText("Bonjour,").innerText()).toBe(
          "Bonjour,\nune question\nsur deux lignes.",
        );
        await page.getByLabel(`Statut de la demande de ${visitor}`).selectOption("in_progress");
        await expect(
          page.getByText("Le statut de la demande a été mis à jour").last(),
        ).toBeVisible();

        await page.goto(`/admin/contacts?q=${id}&status=pending`);
        await expect(row).toHaveCount(0);
        await expect(noJsFilter).toHaveCount(0);
        await page.getByLabel("Filtrer par statut").selectOption("in_progress");
        await expect(page).toHaveURL(`/admin/contacts?q=${id}&status=in_progress`);
        await expect(row).toContainText("En cours");
        await page.getByLabel("Filtrer par statut").selectOption("");
        await expect(page).toHaveURL(`/admin/contacts?q=${id}`);
        await expect(row).toHaveCount(1);
      });

      await test.step("sign out closes the admin area", async () => {
        // Sign out: back to the site, and the admin area is closed again.
        await page.getByRole("button", { name: "Déconnexion" }).click();
        await expect(page).toHaveURL(/\/$/);
        await expect(page.getByText("Déconnexion réussie")).toBeVisible();
        await expect(page.getByText("À bientôt !")).toBeVisible();
        for (const path of ["/admin", "/admin/offers", "/admin/contacts?status=pending"]) {
          await page.goto(path);
          await expect(page).toHaveURL(`/auth?redirectTo=${encodeURIComponent(path)}`);
        }
        // Nor do React Router's data requests give anything away.
        for (const path of ["/admin.data", "/admin/offers.data", "/admin/contacts.data"]) {
          const data = await page.request.get(path);
          const body = await data.text();
          expect(body).toContain("/auth?redirectTo=");
          expect(body).not.toContain(visitor);
          expect(body).not.toContain(E2E_ADMIN.email);
        }
        const forged = await page.request.post("/admin/offers", {
          form: { intent: "delete", id: "1" },
          headers: { Origin: E2E_ADMIN_BASE_URL },
        });
        expect(forged.status()).toBe(401);
      });
    },
  );

  test(
    "works without JavaScript: sign in, create, delete with a confirm step, change a status",
    { tag: NO_JS },
    async ({ page }, testInfo) => {
      test.setTimeout(90_000);
      const id = stamp(testInfo);
      const title = `Sans JS ${id}`;
      const reference = `NOJS-${id}`;

      await page.goto("/admin/offers");
      await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Foffers$/);
      await signIn(page);
      await expect(page).toHaveURL(/\/admin\/offers$/);
      await expect(page.getByText("Connexion réussie")).toBeVisible();

      await page.getByRole("link", { name: "Nouvelle offre" }).click();
      await expect(page).toHaveURL(/\/admin\/offers\/new$/);
      await fillOffer(page, { title, reference, price: "42" });
      // Without JavaScript the slug is left empty and computed by the server.
      await expect(page.getByLabel("Slug (adresse de la page)")).toHaveValue("");
      await page.getByRole("button", { name: "Créer l'offre" }).click();
      await expect(page.getByText("L'offre a été créée avec succès")).toBeVisible();
      await expect(offerItem(page, reference)).toContainText(`/offers/sans-js-${id.toLowerCase()}`);

      await offerItem(page, reference)
        .getByRole("link", { name: `Supprimer l'offre ${title}` })
        .click();
      await expect(page).toHaveURL(/\/admin\/offers\?delete=\d+$/);
      const confirm = page.getByRole("region", {
        name: "Êtes-vous sûr de vouloir supprimer cette offre ?",
      });
      await expect(confirm).toContainText(`${title} (${reference})`);
      await confirm.getByRole("button", { name: "Supprimer" }).click();
      await expect(page.getByText("L'offre a été supprimée avec succès")).toBeVisible();
      await expect(offerItem(page, reference)).toHaveCount(0);

      const visitor = `Visiteur ${id}`;
      await sendContactRequest(page, visitor);
      // Narrowed to this run: other specs send 52 requests in parallel, pushing ours past page 1.
      await page.goto(`/admin/contacts?q=${id}`);
      await page.getByLabel("Filtrer par statut").selectOption("pending");
      await page.getByRole("button", { name: "Filtrer" }).click();
      await expect(page).toHaveURL(`/admin/contacts?q=${id}&status=pending`);
      const row = page.getByRole("row").filter({ hasText: visitor });
      await bulk(page, [visitor], "Terminé");
      await expect(page).toHaveURL(`/admin/contacts?q=${id}&status=pending`);
      await expect(row).toHaveCount(0);
      await page.goto(`/admin/contacts?q=${id}&status=completed`);
      await expect(row).toContainText("Terminé");

      await page.getByRole("button", { name: "Déconnexion" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByText("Déconnexion réussie")).toBeVisible();
      await page.goto("/admin");
      await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin$/);
    },
  );
});
