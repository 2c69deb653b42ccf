import type { OfferType } from "./domain";

// The form's values, shared by the view and the server. Validation lives in offer-form-schema.ts
// (server side), which keeps zod out of the browser bundle.

/** The admin offer form as strings and booleans, exactly what the inputs hold. */
export type OfferFormValues = {
  title: string;
  reference: string;
  slug: string;
  description: string;
  type: string;
  featured: boolean;
  cpu: string;
  ram: string;
  storage: string;
  network: string;
  price: string;
  engagement: boolean;
  contractType: string;
  metaTitle: string;
  metaDescription: string;
  isActive: boolean;
  // Optional numbers and terms (issue 13), typed as text like the price.
  cpuCores: string;
  ramGb: string;
  storageTb: string;
  bandwidthGbps: string;
  setupFee: string;
  loaMonths: string;
  loaPurchaseOption: string;
};

export type OfferField = keyof OfferFormValues;

/** The offer's optional numbers (specs, fee, LOA terms): empty in the form, null in the database. */
export const OFFER_NUMBER_FIELDS = [
  "cpuCores",
  "ramGb",
  "storageTb",
  "bandwidthGbps",
  "setupFee",
  "loaMonths",
  "loaPurchaseOption",
] as const;
type OfferNumberField = (typeof OFFER_NUMBER_FIELDS)[number];

/** Every optional number set to `value` (a reload of the demo or a test that clears them). */
export function allOfferNumbers<V>(value: V): Record<OfferNumberField, V> {
  return Object.fromEntries(OFFER_NUMBER_FIELDS.map((field) => [field, value])) as Record<
    OfferNumberField,
    V
  >;
}

/** Spec section 4: a new form starts as a dedicated server, without engagement, active, not featured. */
export const OFFER_FORM_DEFAULTS: OfferFormValues = {
  title: "",
  reference: "",
  slug: "",
  description: "",
  type: "dedicated",
  featured: false,
  cpu: "",
  ram: "",
  storage: "",
  network: "",
  price: "",
  engagement: false,
  contractType: "",
  metaTitle: "",
  metaDescription: "",
  isActive: true,
  ...allOfferNumbers(""),
};

const TEXT_FIELDS = [
  "title",
  "reference",
  "slug",
  "description",
  "type",
  "cpu",
  "ram",
  "storage",
  "network",
  "price",
  "contractType",
  "metaTitle",
  "metaDescription",
  ...OFFER_NUMBER_FIELDS,
] as const;
const BOOLEAN_FIELDS = ["featured", "engagement", "isActive"] as const;

/** Reads the posted form: missing text is '', a checkbox is true when sent at all. */
export function offerFormValues(form: FormData): OfferFormValues {
  const values = { ...OFFER_FORM_DEFAULTS };
  for (const key of TEXT_FIELDS) {
    const value = form.get(key);
    values[key] = typeof value === "string" ? value : "";
  }
  for (const key of BOOLEAN_FIELDS) values[key] = form.get(key) !== null;
  return values;
}

type OfferLike = {
  title: string;
  reference: string;
  slug: string;
  description: string | null;
  type: OfferType;
  featured: boolean;
  cpu: string;
  ram: string;
  storage: string;
  network: string | null;
  price: string;
  engagement: boolean;
  contractType: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  isActive: boolean;
  cpuCores: number | null;
  ramGb: number | null;
  storageTb: string | null;
  bandwidthGbps: string | null;
  setupFee: string | null;
  loaMonths: number | null;
  loaPurchaseOption: string | null;
};

const numberText = (value: number | string | null) => (value === null ? "" : String(value));

export function offerToFormValues(offer: OfferLike): OfferFormValues {
  return {
    title: offer.title,
    reference: offer.reference,
    slug: offer.slug,
    description: offer.description ?? "",
    type: offer.type,
    featured: offer.featured,
    cpu: offer.cpu,
    ram: offer.ram,
    storage: offer.storage,
    network: offer.network ?? "",
    price: offer.price,
    engagement: offer.engagement,
    contractType: offer.contractType ?? "",
    metaTitle: offer.metaTitle ?? "",
    metaDescription: offer.metaDescription ?? "",
    isActive: offer.isActive,
    cpuCores: numberText(offer.cpuCores),
    ramGb: numberText(offer.ramGb),
    storageTb: numberText(offer.storageTb),
    bandwidthGbps: numberText(offer.bandwidthGbps),
    setupFee: numberText(offer.setupFee),
    loaMonths: numberText(offer.loaMonths),
    loaPurchaseOption: numberText(offer.loaPurchaseOption),
  };
}
