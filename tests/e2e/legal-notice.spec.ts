import { expect, test } from "./fixtures";

// The site's own legal notice (issue 21): from the footer of any public page, with or without
// JavaScript, built from the configuration (the demo's fictitious defaults here).

test("the footer leads to the legal notice: publisher, director and host", async ({ page }) => {
  await page.goto("/offers");
  await page.getByRole("contentinfo").getByRole("link", { name: "Mentions légales" }).click();
  await expect(page).toHaveURL(/\/mentions-legales$/);
  await expect(page).toHaveTitle("Mentions légales");
  await expect(page.getByRole("heading", { level: 1, name: "Mentions légales" })).toBeVisible();
  const section = (name: string) => page.getByRole("region", { name });
  await expect(section("Éditeur du site")).toContainText("ServeurPro SAS (exemple)");
  await expect(section("Éditeur du site")).toContainText("RCS Paris 123 456 789");
  await expect(section("Éditeur du site")).toContainText("FR32123456789");
  await expect(section("Directeur de la publication")).toContainText("Camille Exemple");
  await expect(section("Hébergeur")).toContainText("Exemple Hébergement SAS");
  await section("Données personnelles")
    .getByRole("link", { name: "politique de confidentialité" })
    .click();
  await expect(page).toHaveURL(/\/confidentialite$/);
});
