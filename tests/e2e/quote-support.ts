import { expect, type Page } from "@playwright/test";

/** The buyer's company, as the contact form posts it and the quote names it. */
export const QUOTE_COMPANY = { company: "ACME SAS", siren: "732829320" };

/** A unique name and address for one test's buyer. */
export function buyerOf(testInfo: { project: { name: string } }, first: string) {
  const id = `${testInfo.project.name}-${Date.now()}`.replace(/[^a-z0-9]/gi, "");
  return {
    id,
    name: `${first} ${id}`,
    email: `${first.toLowerCase()}-${id.toLowerCase()}@example.fr`,
  };
}

/** The request page's title and status badge. */
export function requestHeader(page: Page, name: string) {
  return page.getByRole("heading", { name, level: 1 }).locator("xpath=..");
}

/**
 * A request about an LOA offer, with the buyer's company, as the contact form posts it; then the
 * administrator signs in, opens it and sends its quote with `Envoyer le devis`. Ends on the
 * request's page, showing `Devis envoyé`; returns its address.
 */
export async function sendQuoteFor(
  page: Page,
  site: { base: string; admin: { email: string; password: string } },
  buyer: { id: string; name: string; email: string },
) {
  const { base, admin } = site;
  const { id, name, email } = buyer;
  await page.goto(`${base}/offers/loa-pme-36-mois`);
  const contact = await page
    .getByRole("link", { name: "Demander des informations" })
    .getAttribute("href");
  const offer = new URL(contact!, base).searchParams.get("offer")!;
  const sent = await page.request.post(`${base}/contact`, {
    headers: { Origin: base },
    form: {
      name,
      email,
      phone: "",
      ...QUOTE_COMPANY,
      offer,
      message: "Un devis pour cette location, s'il vous plaît.",
      website: "",
    },
  });
  expect(sent.status()).toBe(200);
  expect(sent.url()).toMatch(/\/contact\/merci\?ref=DEM-/);

  await page.goto(`${base}/admin/contacts?q=${id}`);
  await expect(page).toHaveURL(/\/auth\?redirectTo=/);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Mot de passe").fill(admin.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(`${base}/admin/contacts?q=${id}`);
  await page.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/admin\/contacts\/\d+$/);
  const requestUrl = page.url();
  const header = requestHeader(page, name);
  await expect(header).toContainText("En attente");

  await page.getByRole("link", { name: "Envoyer le devis" }).click();
  await expect(page).toHaveURL(`${requestUrl}/envoyer-devis`);
  await expect(page.getByRole("heading", { name: "Envoyer le devis", level: 1 })).toBeVisible();
  await expect(page.getByText("ACME SAS — SIREN 732 829 320 — N° TVA FR44732829320")).toBeVisible();
  await expect(page.getByLabel("Validité (jours)")).toHaveValue("30");
  await page.getByRole("button", { name: "Envoyer le devis" }).click();
  await expect(page).toHaveURL(requestUrl);
  await expect(page.getByText("Devis envoyé").first()).toBeVisible();
  await expect(header).toContainText("Devis envoyé");
  const history = page.getByRole("list", { name: "Historique de la demande" });
  await expect(history.getByRole("listitem").first()).toContainText("En attente → Devis envoyé");
  await expect(history.getByRole("listitem").first()).toContainText(admin.email);
  return requestUrl;
}
