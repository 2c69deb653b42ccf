import { allOfferNumbers } from "../../app/features/offers/offer-form";
import { parseOptionLines, type OptionGroup } from "../../app/lib/offer-options";
import type { Database } from "../../app/platform/db.server";
import { offers, type NewOffer } from "../../app/platform/schema.server";

/**
 * Offer n as a row to insert: unique title, slug and reference from n, created on day n of
 * January 2026 (offer 8 is newer than offer 7), active, a dedicated server at 100.00 € HT.
 * `fields` overrides any of it. Builds data only: insertOffers writes it.
 */
export function buildOffer(n: number, fields: Partial<NewOffer> = {}): NewOffer {
  return {
    title: `Offre ${n}`,
    slug: `offre-${n}`,
    reference: `REF-${n}`,
    cpu: "Intel Xeon E-2388G",
    ram: "64 Go DDR4",
    storage: "2 × 1 To NVMe",
    type: "dedicated",
    engagement: false,
    isActive: true,
    price: "100.00",
    createdAt: new Date(Date.UTC(2026, 0, n)),
    ...fields,
  };
}

function optionGroups(text: string): OptionGroup[] {
  const parsed = parseOptionLines(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.groups;
}

/** Options as the editor stores them: 128 Go or 256 Go (+40 € HT/mois), 0 to 16 extra IPv4. */
export const OFFER_OPTIONS = optionGroups(`Mémoire | 128 Go inclus | 0 | 0
Mémoire | 256 Go | 40 | 0
IPv4 supplémentaires | 0-16 | 2 | 5`);

/** Offer n to configure: 129.00 € HT a month, 49.00 € HT of setup, OFFER_OPTIONS. */
export function buildConfigurableOffer(n: number, fields: Partial<NewOffer> = {}): NewOffer {
  return buildOffer(n, { price: "129.00", setupFee: "49.00", options: OFFER_OPTIONS, ...fields });
}

export function insertOffers(db: Database, rows: NewOffer[]) {
  return db.insert(offers).values(rows).returning({ id: offers.id, title: offers.title });
}

/** The admin offer form as the editor page posts it, valid as it stands. */
export const VALID_OFFER_FORM = {
  title: "Serveur Test",
  reference: "TST-001",
  slug: "",
  description: "Une **offre** de test.",
  type: "dedicated",
  cpu: "AMD EPYC 7543",
  ram: "128 Go",
  storage: "2 × 1 To NVMe",
  network: "1 Gbit/s",
  price: "199.99",
  contractType: "",
  metaTitle: "",
  metaDescription: "",
  isActive: "on",
};

/** The optional numbers of the offer form, all left empty. */
export const EMPTY_OFFER_NUMBERS = allOfferNumbers("");
