import { offers } from "../../app/platform/schema.server";
import type { Database } from "../../app/platform/db.server";
import { parseOfferForm } from "../../app/features/offers/offer-form-schema";
import { OFFER_FORM_DEFAULTS, type OfferFormValues } from "../../app/features/offers/offer-form";

/** A valid offer as the editor's schema gives it, with `fields` typed over a small server. */
export function offerInput(fields: Partial<OfferFormValues> = {}) {
  const result = parseOfferForm({
    ...OFFER_FORM_DEFAULTS,
    title: "Serveur Épique",
    reference: "EPQ-1",
    cpu: "AMD EPYC",
    ram: "64 Go",
    storage: "1 To",
    price: "99.90",
    ...fields,
  });
  if (!result.success) throw new Error(result.message);
  return result.data;
}

/** Every offer's slug, sorted. */
export async function offerSlugs(db: Database) {
  return (await db.select({ slug: offers.slug }).from(offers)).map((r) => r.slug).sort();
}
