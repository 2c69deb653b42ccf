import { expect, noJs, test } from "./fixtures";
import { LAYOUT, NEEDS_JS } from "./tags";

// The contact form on the public site (the pages before it: public.spec.ts).
test.describe("contact", () => {
  test(
    "lists 'Demande générale' then active offers by title, with the side card",
    { tag: LAYOUT },
    async ({ page }) => {
      await page.goto("/contact");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contactez-nous");
      const options = await page
        .getByLabel("Offre concernée (optionnel)")
        .locator("option")
        .allTextContents();
      expect(options[0]).toBe("Demande générale");
      expect(options).toHaveLength(13);
      const titles = options.slice(1);
      expect(titles).toEqual(
        [...titles].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })),
      );
      expect(options).toContain("EPYC Performance 64 (DED-EPYC-7543)");
      expect(options.join()).not.toContain("Xeon Legacy");
      await expect(page.getByLabel("Message *")).toHaveAttribute("rows", "6");
      const side = page.getByRole("complementary");
      await expect(side.getByRole("heading", { name: "Nos coordonnées" })).toBeVisible();
      await expect(side.getByRole("link", { name: "contact@example.fr" })).toBeVisible();
      await expect(side.getByRole("link", { name: "+33 1 23 45 67 89" })).toBeVisible();
      // No opening hours unless configured (SITE_HOURS).
      await expect(side).not.toContainText(/lundi|9h/);
    },
  );

  // Both with and without JavaScript: contact.ts removes an 'Offre sélectionnée' box the server
  // might have drawn, so only the run without it sees the server's answer alone.
  test("ignores an unknown or inactive ?offer=", async ({ page }) => {
    for (const value of ["999999", "abc", "-1", "11"]) {
      const response = await page.goto(`/contact?offer=${value}`);
      expect(response?.status()).toBe(200);
      await expect(page.getByLabel("Offre concernée (optionnel)")).toHaveValue("");
      await expect(page.getByText("Offre sélectionnée :")).toHaveCount(0);
    }
  });

  test(
    "sends a request to its confirmation page; the form starts empty again",
    { tag: LAYOUT },
    async ({ page }, testInfo) => {
      await page.goto("/contact");
      const name = `Visiteur ${testInfo.project.name} ${Date.now()}`;
      await page.getByLabel("Nom complet *").fill(name);
      await page.getByLabel("Email *").fill("visiteur@example.fr");
      await page.getByLabel("Téléphone").fill("06 12 34 56 78");
      await page
        .getByLabel("Offre concernée (optionnel)")
        .selectOption({ label: "Starter Web (DED-ATOM-C3758)" });
      if (!noJs(testInfo)) {
        await expect(page.getByText("Offre sélectionnée :")).toBeVisible();
        await expect(page.getByRole("main")).toContainText(/39,99\s€\sHT\/mois/);
      }
      await page.getByLabel("Message *").fill("Bonjour,\nje souhaite un devis.");
      await page.getByRole("button", { name: "Envoyer le message" }).click();
      // Post/redirect/get: the confirmation is a page of its own, with the request's reference.
      await expect(page).toHaveURL(/\/contact\/merci\?ref=DEM-\d{4}-\d{5}$/);
      await expect(page.getByText("Message envoyé !")).toBeVisible();
      await expect(page.getByRole("main")).toContainText(/DEM-\d{4}-\d{5}/);
      await expect(
        page.getByText("Nous vous répondrons dans les plus brefs délais."),
      ).toBeVisible();
      await page.goto("/contact");
      await expect(page.getByLabel("Nom complet *")).toHaveValue("");
      await expect(page.getByLabel("Message *")).toHaveValue("");
      await expect(page.getByLabel("Offre concernée (optionnel)")).toHaveValue("");
    },
  );

  test("checks required fields on the server too", async ({ request }) => {
    const response = await request.post("/contact", {
      form: { name: "  ", email: "x@example.fr", message: "" },
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("Veuillez remplir tous les champs obligatoires.");
  });

  // Needs a script to turn off the browser's own checks.
  test(
    "shows the server's messages when the browser lets an invalid form through",
    { tag: [NEEDS_JS, LAYOUT] },
    async ({ page }) => {
      await page.goto("/contact");
      await page
        .getByRole("form", { name: "Formulaire de contact" })
        .evaluate((form) => form.setAttribute("novalidate", ""));
      await page.getByLabel("Nom complet *").fill("   ");
      await page.getByRole("button", { name: "Envoyer le message" }).click();
      await expect(page.getByText("Champs manquants")).toBeVisible();
      await expect(
        page.getByText("Veuillez remplir tous les champs obligatoires.").first(),
      ).toBeVisible();
      await expect(page.getByLabel("Nom complet *")).toHaveAttribute("aria-invalid", "true");
    },
  );
});
