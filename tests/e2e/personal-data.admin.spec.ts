import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { openAsAdmin } from "./admin-support";
import { expect, noJs, test } from "./fixtures";
import { SERVER_READ } from "./tags";

// Access, export and erasure of one person's data (issue 12), with and without JavaScript.

async function sendContactRequest(page: Page, name: string, email: string) {
  await page.goto("/contact");
  await page.getByLabel("Nom complet *").fill(name);
  await page.getByLabel("Email *").fill(email);
  await page.getByLabel("Message *").fill(`Bonjour,\nje suis ${name}.`);
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(page.getByText("Message envoyé !")).toBeVisible();
}

async function search(page: Page, email: string) {
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByRole("button", { name: "Rechercher" }).click();
  await expect(
    page.getByRole("heading", { name: `Données conservées pour ${email}` }),
  ).toBeVisible();
}

test.describe("personal data of one person", () => {
  test("find, export and erase everything about one address, and only that", async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const id = `${testInfo.project.name}-${Date.now()}`;
    const email = `prospect-${id}@example.fr`;
    const other = `voisin-${id}@example.fr`;
    await sendContactRequest(page, "Prospect Un", email);
    await sendContactRequest(page, "Prospect Deux", email.toUpperCase());
    await sendContactRequest(page, "Voisin", other);

    await openAsAdmin(page, "/admin");
    await page
      .getByRole("navigation", { name: "Navigation de l'administration" })
      .getByRole("link", { name: "Données personnelles" })
      .click();
    await expect(page).toHaveURL(/\/admin\/personal-data$/);
    await expect(
      page.getByRole("heading", { level: 1, name: "Données personnelles" }),
    ).toBeVisible();

    // Case does not matter: both requests are found.
    const mixed = `Prospect-${id}@Example.FR`;
    await search(page, mixed);
    await expect(page).toHaveURL(/\?email=/);
    await expect(page.getByText("2 demandes, 0 note, 0 changement de statut")).toBeVisible();
    const requests = page.getByRole("list", { name: "Demandes de cette personne" });
    // Two requests (each lists its own notification mail inside it).
    await expect(requests.locator(":scope > li")).toHaveCount(2);
    await expect(requests).toContainText("Prospect Un");
    await expect(requests).toContainText("Prospect Deux");
    await expect(requests).not.toContainText("Voisin");

    // The JSON file, as a download.
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Exporter (JSON)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^donnees-personnelles-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(file.email).toBe(mixed);
    expect(file.contactRequests.map((r: { name: string }) => r.name).sort()).toEqual([
      "Prospect Deux",
      "Prospect Un",
    ]);
    expect(file.contactRequests[0].message).toMatch(/^Bonjour,\r?\nje suis Prospect/);

    // Erase, after a confirmation: a dialog with JavaScript, a page of its own without.
    await page.getByRole("button", { name: "Tout effacer" }).click();
    if (noJs(testInfo)) {
      const confirmation = page.getByRole("region", {
        name: `Effacer toutes les données de ${mixed} ?`,
      });
      await expect(confirmation).toContainText("2 demandes");
      await confirmation.getByRole("button", { name: "Confirmer l'effacement" }).click();
    } else {
      const dialog = page.getByRole("dialog", { name: `Effacer toutes les données de ${mixed} ?` });
      await expect(dialog).toContainText("2 demandes");
      await dialog.getByRole("button", { name: "Confirmer l'effacement" }).click();
      await expect(dialog).toBeHidden();
    }
    await expect(page.getByText("Données effacées").first()).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/personal-data$/);

    await search(page, email);
    await expect(page.getByText("Aucune donnée n'est conservée pour cette adresse.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Exporter (JSON)" })).toHaveCount(0);
    // The other person's request is still there.
    await search(page, other);
    await expect(page.getByRole("list", { name: "Demandes de cette personne" })).toContainText(
      "Voisin",
    );
  });

  test("a cancelled confirmation erases nothing; a bad address gets a French message", async ({
    page,
  }, testInfo) => {
    const email = `annule-${testInfo.project.name}-${Date.now()}@example.fr`;
    await sendContactRequest(page, "Annulé", email);
    await openAsAdmin(page, "/admin");
    await page.goto("/admin/personal-data");
    await search(page, email);
    await page.getByRole("button", { name: "Tout effacer" }).click();
    if (noJs(testInfo)) {
      await page.getByRole("link", { name: "Annuler" }).click();
    } else {
      await page.getByRole("dialog").getByRole("button", { name: "Annuler" }).click();
      await expect(page.getByRole("dialog")).toBeHidden();
    }
    await expect(
      page.getByRole("heading", { name: `Données conservées pour ${email}` }),
    ).toBeVisible();
    await expect(page.getByText("1 demande, 0 note")).toBeVisible();

    const bad = await page.goto("/admin/personal-data?email=pas-une-adresse");
    expect(bad?.status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText("Veuillez saisir une adresse e-mail valide.");
  });

  test("closed to visitors", { tag: SERVER_READ }, async ({ page }) => {
    await page.goto("/admin/personal-data?email=a%40example.fr");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Fpersonal-data/);
    await page.goto("/admin/personal-data/export?email=a%40example.fr");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Fpersonal-data%2Fexport/);
  });
});
