import type { Page } from "@playwright/test";
import { expect, noJs, test } from "./fixtures";
import { DESKTOP_ONLY, NEEDS_JS, NO_JS } from "./tags";

// The site's one toast (issue 43, app/client/toast.ts): a flash message after a redirect and the
// contact form's answer are the same element, inline without JavaScript, a closable toast with
// it, on pages that do not hydrate (no React for a toast). The admin side's toasts: admin.spec.ts
// ('Connexion réussie', 'Déconnexion réussie').

/** The flash cookie a redirect sets (app/platform/flash.server.ts): a key of our own messages. */
async function withFlash(page: Page, key: string) {
  const url = new URL(test.info().project.use.baseURL ?? "http://127.0.0.1");
  await page.context().addCookies([{ name: "flash", value: key, url: url.origin }]);
}

test.describe("toasts", () => {
  test(
    "a flash message on a page that does not hydrate is a toast that closes, without React",
    { tag: [NEEDS_JS, DESKTOP_ONLY] },
    async ({ page }) => {
      await withFlash(page, "signedOut");
      await page.goto("/");
      const toast = page.getByRole("status").filter({ hasText: "Déconnexion réussie" });
      await expect(toast).toBeVisible();
      await expect(toast).toContainText("À bientôt !");
      // The page stays without React: the toast needs only the site's small script.
      expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
      // At the bottom right of the window, over the page.
      const box = (await toast.boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(box.y + box.height).toBeGreaterThan(viewport.height - 40);
      expect(box.x + box.width).toBeGreaterThan(viewport.width - 40);
      await toast.getByRole("button", { name: "Fermer" }).click();
      await expect(toast).toBeHidden();
      // Shown once: the next page has none.
      await page.reload();
      await expect(page.getByText("Déconnexion réussie")).toHaveCount(0);
    },
  );

  test(
    "a success closes by itself after a few seconds",
    { tag: [NEEDS_JS, DESKTOP_ONLY] },
    async ({ page }) => {
      await page.clock.install();
      await withFlash(page, "signedOut");
      await page.goto("/offers");
      const toast = page.getByRole("status").filter({ hasText: "Déconnexion réussie" });
      await expect(toast).toBeVisible();
      await page.clock.runFor(7_000);
      await expect(toast).toBeHidden();
    },
  );

  test(
    "without JavaScript, the flash message is a line at the top of the page",
    { tag: [NO_JS, DESKTOP_ONLY] },
    async ({ page }, testInfo) => {
      expect(noJs(testInfo)).toBe(true);
      await withFlash(page, "signedOut");
      await page.goto("/");
      const toast = page.getByRole("status").filter({ hasText: "Déconnexion réussie" });
      await expect(toast).toBeVisible();
      // In the page's flow, above the header; no close button without a script to run it.
      const box = (await toast.boundingBox())!;
      expect(box.y).toBeLessThan(10);
      await expect(toast.getByRole("button", { name: "Fermer" })).toBeHidden();
    },
  );

  test(
    "the contact form's refusal is the same toast, closable",
    { tag: [NEEDS_JS, DESKTOP_ONLY] },
    async ({ page }) => {
      await page.goto("/contact");
      // The browser's own checks stand aside: the server's answer is what is shown.
      await page.getByRole("form", { name: "Formulaire de contact" }).evaluate((form) => {
        (form as HTMLFormElement).noValidate = true;
      });
      await page.getByRole("button", { name: "Envoyer le message" }).click();
      const toast = page
        .getByRole("alert")
        .filter({ has: page.getByRole("button", { name: "Fermer" }) });
      await expect(toast).toBeVisible();
      await toast.getByRole("button", { name: "Fermer" }).click();
      await expect(toast).toBeHidden();
    },
  );
});
