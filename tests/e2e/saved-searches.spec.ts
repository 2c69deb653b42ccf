import { expect, test } from "./fixtures";

// `Me prévenir des nouvelles offres` (issue 42) on a filtered listing, with and without JavaScript
// (a plain POST form; the listing's script leaves it alone). The mails: tests/integration.

test("a filtered listing offers `Me prévenir des nouvelles offres`, then check your inbox", async ({
  page,
}, testInfo) => {
  await page.goto("/offers?q=epyc");
  const form = page.getByRole("form", { name: "Me prévenir des nouvelles offres" });
  await expect(form).toBeVisible();
  await expect(form).toContainText("au plus un e-mail par jour");
  await form
    .getByLabel("Votre adresse e-mail")
    .fill(`recherche-${testInfo.project.name}@example.fr`);
  await form.getByRole("button", { name: "Me prévenir des nouvelles offres" }).click();
  await expect(page).toHaveURL(/\/recherches\?q=epyc&envoyee=1$/);
  await expect(page.getByRole("status")).toContainText("Vérifiez votre boîte de réception");
  await expect(page.getByText("Recherche : « epyc »")).toBeVisible();
  await page.getByRole("link", { name: "Retour aux offres" }).click();
  await expect(page).toHaveURL(/\/offers\?q=epyc$/);
});

test("the plain listing has no such form; a wrong link says so", async ({ page }) => {
  await page.goto("/offers");
  await expect(page.getByRole("form", { name: "Me prévenir des nouvelles offres" })).toHaveCount(0);
  const answer = await page.goto("/recherches/desinscription?jeton=inconnu");
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lien invalide ou expiré");
});
