import type { Page } from "@playwright/test";
import { E2E_ADMIN, E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { expect } from "./fixtures";

// Steps shared by the administrator specs (admin.spec.ts, admin-*.spec.ts).

/** A unique mark for what one test creates on the shared server (project and time). */
export function stamp(testInfo: { project: { name: string } }) {
  return `${testInfo.project.name}-${Date.now()}`;
}

export async function signIn(page: Page, password = E2E_ADMIN.password, email = E2E_ADMIN.email) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Mot de passe").fill(password);
  await page.getByRole("button", { name: "Se connecter" }).click();
}

/**
 * Opens `path` as a signed-in administrator: through the sign-in screen it redirects to, back on
 * `path` with the sign-in toast.
 */
export async function openAsAdmin(
  page: Page,
  path: string,
  email = E2E_ADMIN.email,
  password = E2E_ADMIN.password,
) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/auth\?redirectTo=/);
  await signIn(page, password, email);
  await expect(page.getByText("Connexion réussie").first()).toBeVisible();
  await expect(page).toHaveURL(new URL(path, E2E_ADMIN_BASE_URL).href);
}

/** The admin list entry of one offer, found by its unique reference. */
export function offerItem(page: Page, reference: string) {
  return page
    .getByRole("region", { name: "Liste des offres" })
    .getByRole("listitem")
    .filter({ hasText: reference });
}

export async function fillOffer(
  page: Page,
  fields: { title: string; reference: string; price: string },
) {
  await page.getByLabel("Titre *", { exact: true }).fill(fields.title);
  await page.getByLabel("Référence *").fill(fields.reference);
  await page.getByLabel("Processeur (CPU) *").fill("AMD EPYC 9124 (16 cœurs)");
  await page.getByLabel("Mémoire RAM *").fill("128 Go DDR5");
  await page.getByLabel("Stockage *").fill("2 × 960 Go NVMe");
  await page.getByLabel("Prix (€/mois) *").fill(fields.price);
  await page.getByLabel("Description (markdown)").fill("Une **offre** de test.\n\n- ligne");
}

/** Ticks the request list's rows of these names and applies one bulk action (by its option's label). */
export async function bulk(page: Page, names: string[], action: string) {
  for (const name of names) await page.getByLabel(`Cocher ${name}`, { exact: true }).check();
  await page.getByLabel("Pour les demandes cochées").selectOption({ label: action });
  await page.getByRole("button", { name: "Appliquer" }).click();
  await expect(
    page.getByText("La modification a été appliquée aux demandes cochées").last(),
  ).toBeVisible();
}
