import { expect, type Page } from "@playwright/test";

// Steps shared by the reply templates' specs (reply-templates.admin.spec.ts in Chromium,
// reply-templates.firefox.spec.ts in Firefox ESR).

/** A demo offer the request is about: its title is what `{offre}` becomes. */
const OFFER_SLUG = "epyc-performance-64";

/**
 * A request about a demo offer, posted as the contact form does (from Chromium's `page`, whatever
 * browser the salesperson then uses); its reference and the offer's title.
 */
export async function postRequest(page: Page, base: string, name: string) {
  await page.goto(`${base}/offers/${OFFER_SLUG}`);
  const offerTitle = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();
  const contact = await page
    .getByRole("link", { name: "Demander des informations" })
    .getAttribute("href");
  const offer = new URL(contact!, base).searchParams.get("offer")!;
  const sent = await page.request.post(`${base}/contact`, {
    headers: { Origin: base },
    form: {
      name,
      email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}@example.fr`,
      phone: "",
      offer,
      message: "Pouvez-vous me confirmer le délai de livraison ?",
      website: "",
    },
  });
  expect(sent.status()).toBe(200);
  const reference = new URL(sent.url()).searchParams.get("ref");
  expect(reference).toMatch(/^DEM-\d{4}-\d+$/);
  return { reference: reference!, offerTitle };
}

/** A template's text with the placeholders of every kind, and what it becomes on the request. */
export function templateText(stamp: string) {
  return {
    body: `Bonjour {nom},\nVotre demande {reference} ({offre}) est prête : livraison ${stamp}.\n{signature}`,
    applied: (values: { name: string; reference: string; offer: string; email: string }) =>
      `Bonjour ${values.name},\nVotre demande ${values.reference} (${values.offer}) est prête : livraison ${stamp}.\n${values.email}`,
  };
}
