import { expect, noJs, test } from "./fixtures";

// The privacy policy (issue 12): reachable from every public page, and from the contact form.

test.describe("privacy policy", () => {
  test("every public page links to it from the footer", async ({ page }) => {
    for (const path of ["/", "/offers", "/offers/epyc-performance-64", "/contact", "/nulle-part"]) {
      await page.goto(path);
      const link = page
        .getByRole("contentinfo")
        .getByRole("link", { name: "Politique de confidentialité" });
      await expect(link, path).toBeVisible();
      await expect(link, path).toHaveAttribute("href", "/confidentialite");
    }
  });

  test("says who is responsible, what is kept, why, how long, and the person's rights", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    await page
      .getByRole("contentinfo")
      .getByRole("link", { name: "Politique de confidentialité" })
      .click();
    await expect(page).toHaveURL(/\/confidentialite$/);
    await expect(page).toHaveTitle("Politique de confidentialité");
    await expect(
      page.getByRole("heading", { level: 1, name: "Politique de confidentialité" }),
    ).toBeVisible();
    const section = (name: string) => page.getByRole("region", { name });
    await expect(section("Responsable du traitement")).toContainText(
      "ServeurPro SAS (exemple), 1 rue de l'Exemple, 75000 Paris, France",
    );
    await expect(section("Données recueillies et finalités")).toContainText(
      "assurer le suivi commercial",
    );
    await expect(section("Bases légales")).toContainText("mesures précontractuelles");
    await expect(section("Bases légales")).toContainText("intérêt légitime");
    await expect(section("Destinataires")).toContainText("l'équipe commerciale de ServeurPro");
    await expect(section("Durée de conservation")).toContainText("36 mois (3 ans)");
    await expect(section("Vos droits")).toContainText(
      "d'accès, de rectification, d'effacement, d'opposition, de limitation du traitement et de portabilité",
    );
    await expect(
      section("Vos droits").getByRole("link", { name: "contact@example.fr" }),
    ).toHaveAttribute("href", "mailto:contact@example.fr");
    await expect(page.getByRole("link", { name: "www.cnil.fr/fr/plaintes" })).toHaveAttribute(
      "href",
      "https://www.cnil.fr/fr/plaintes",
    );
    await expect(section("Cookies et stockage dans le navigateur")).toContainText(
      "serveurpro-theme",
    );
    await expect(section("Cookies et stockage dans le navigateur")).toContainText(
      "pas de bandeau de cookies",
    );
    // A public page: no React in the browser.
    expect(await page.locator("script[src*='entry.client']").count()).toBe(0);
    if (!noJs(testInfo)) {
      expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    }
  });

  test("the contact form says what is done with the data, before its button", async ({ page }) => {
    await page.goto("/contact");
    const form = page.getByRole("form", { name: "Formulaire de contact" });
    const notice = form.locator("[data-privacy-notice]");
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(
      "Les informations saisies servent uniquement à répondre à votre demande et à assurer notre suivi commercial",
    );
    const button = form.getByRole("button", { name: "Envoyer le message" });
    // Before the button in the document (read in that order by screen readers and keyboards).
    const before = await notice.evaluate(
      (node, other) =>
        Boolean(node.compareDocumentPosition(other!) & Node.DOCUMENT_POSITION_FOLLOWING),
      await button.elementHandle(),
    );
    expect(before).toBe(true);
    await notice.getByRole("link", { name: "politique de confidentialité" }).click();
    await expect(page).toHaveURL(/\/confidentialite$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Politique de confidentialité",
    );
  });
});
