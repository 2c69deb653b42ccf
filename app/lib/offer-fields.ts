import { OFFER_TYPE_LABELS, OFFER_TYPES } from "./domain";
import { LEASE_DURATIONS } from "./offer-price";
import type { OptionGroup } from "./offer-options";

// The offer's editable fields, once (issue 21). The form's values and defaults (offer-form.ts),
// its validation (offer-form-schema.ts), the admin form's inputs, the copy into the database
// (offers.server.ts), the API's specs (offer-api-schema.ts), the comparison's number rows and the
// tests all derive from this table (features/offers/); the database column stays in the schema,
// checked against it at compile time (offers.server.ts).
// No zod here: the admin form's bundle imports it.

/** Where the admin form puts a field: its sections, in the page's order. */
export const OFFER_FORM_SECTIONS = {
  main: null,
  delivery: "Disponibilité",
  numbers: "Caractéristiques chiffrées (facultatives)",
  options: "Options payantes",
  loa: "Location LOA (offres de type Location LOA)",
  text: null,
  seo: null,
  flags: null,
} as const;
export type OfferFormSection = keyof typeof OFFER_FORM_SECTIONS;

type Common = {
  /** The admin form's label (a '*' is added to required fields). */
  label: string;
  /** The subject of validation messages: 'Le titre ne doit pas dépasser…'. */
  subject?: string;
  section: OfferFormSection;
  hint?: string;
  placeholder?: string;
  /** Only an offer whose `field` is `value` may hold a value (refused otherwise, with `message`). */
  only?: { field: string; value: string; message: string };
  /** A number of what a text field says in words (`cpuCores` of `cpu`): the API's `specs` give both. */
  measures?: string;
  /** The comparison's row for a number, with this label (compare.tsx). */
  compare?: string;
};

export type OfferFieldSpec = Common &
  (
    | { kind: "text"; max: number; required?: boolean; multiline?: boolean }
    | {
        kind: "choice";
        values: readonly string[];
        labels: Record<string, string>;
        message: string;
        /** What a form without the field means (forms and scripts written before it existed). */
        fallback?: string;
      }
    | { kind: "boolean" }
    | { kind: "price"; max: number }
    | { kind: "integer"; min: number; max: number; message: string }
    | { kind: "decimal"; min: number; max: number; message: string }
    /** A choice among rows the administrator keeps (datacenters): options come from the loader. */
    | { kind: "reference"; max: number }
    /** Option groups typed one line per choice (offer-options.ts), stored as JSON. */
    | { kind: "options"; max: number }
    /** Lease durations among LEASE_DURATIONS, typed '24, 36', stored as an integer array. */
    | { kind: "months"; max: number; message: string }
  );

export const PRICE_MAX = 1_000_000;
const fr = (n: number) => n.toLocaleString("fr-FR");
const between = (min: number, max: number) => `${fr(min)} et ${fr(max)}`;

/** An optional number's bounds and message in one place. */
const integer = (min: number, max: number, message: (range: string) => string) =>
  ({ kind: "integer", min, max, message: message(between(min, max)) }) as const;
const decimal = (min: number, max: number, message: (range: string) => string) =>
  ({ kind: "decimal", min, max, message: message(between(min, max)) }) as const;

const LOA_ONLY = {
  field: "type",
  value: "loa",
  message: "Réservé aux offres de type Location LOA.",
};

export const DELIVERY_STATES = ["stock_24h", "stock_72h", "on_order", "sold_out"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
/** The admin form's choices (the public wording, with the delay, is delivery.ts's). */
const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  stock_24h: "En stock — livraison sous 24 h",
  stock_72h: "En stock — livraison sous 72 h",
  on_order: "Sur commande",
  sold_out: "Épuisé",
};

export const OFFER_FIELDS = {
  title: {
    kind: "text",
    max: 150,
    required: true,
    label: "Titre",
    subject: "Le titre",
    section: "main",
  },
  reference: {
    kind: "text",
    max: 60,
    required: true,
    label: "Référence",
    subject: "La référence",
    section: "main",
    placeholder: "DED-XXX-000",
  },
  slug: {
    kind: "text",
    max: 100,
    label: "Slug (adresse de la page)",
    subject: "Le slug",
    section: "main",
    hint: "Généré à partir du titre et modifiable. Laissé vide, il est calculé à l'enregistrement ; s'il est déjà pris, un suffixe -1, -2… est ajouté.",
  },
  type: {
    kind: "choice",
    values: OFFER_TYPES,
    labels: OFFER_TYPE_LABELS,
    message: "Le type d'offre n'est pas valide.",
    label: "Type",
    section: "main",
  },
  cpu: {
    kind: "text",
    max: 150,
    required: true,
    label: "Processeur (CPU)",
    subject: "Le processeur",
    section: "main",
  },
  ram: {
    kind: "text",
    max: 150,
    required: true,
    label: "Mémoire RAM",
    subject: "La mémoire RAM",
    section: "main",
  },
  storage: {
    kind: "text",
    max: 150,
    required: true,
    label: "Stockage",
    subject: "Le stockage",
    section: "main",
  },
  network: { kind: "text", max: 150, label: "Réseau", subject: "Le réseau", section: "main" },
  price: {
    kind: "price",
    max: PRICE_MAX,
    label: "Prix (€/mois)",
    section: "main",
    hint: "Hors taxes (HT) : le site affiche aussi le montant TTC. Une offre LOA avec un montant financé a pour prix le loyer calculé par le Barème LOA.",
  },
  contractType: {
    kind: "text",
    max: 150,
    label: "Type de contrat",
    subject: "Le type de contrat",
    section: "main",
    placeholder: "Engagement 12 mois",
  },
  setupFee: {
    ...decimal(
      0,
      PRICE_MAX,
      (r) =>
        `Les frais de mise en service doivent être un montant entre ${r} € avec au plus 2 décimales.`,
    ),
    label: "Frais de mise en service (€ HT)",
    section: "main",
    hint: "Vide : non précisés. 0 : mise en service offerte.",
  },
  cpuCores: {
    ...integer(1, 4096, (r) => `Le nombre de cœurs doit être un nombre entier entre ${r}.`),
    label: "Cœurs CPU",
    section: "numbers",
    measures: "cpu",
    compare: "Cœurs",
  },
  ramGb: {
    ...integer(1, 65_536, (r) => `La RAM doit être un nombre entier de Go entre ${r}.`),
    label: "RAM (Go)",
    section: "numbers",
    measures: "ram",
  },
  storageTb: {
    ...decimal(
      0.01,
      100_000,
      (r) => `Le stockage doit être un nombre de To entre ${r} (2 décimales au plus).`,
    ),
    label: "Stockage (To)",
    section: "numbers",
    measures: "storage",
  },
  bandwidthGbps: {
    ...decimal(
      0.01,
      10_000,
      (r) => `La bande passante doit être un nombre de Gbit/s entre ${r} (2 décimales au plus).`,
    ),
    label: "Bande passante (Gbit/s)",
    section: "numbers",
    measures: "network",
  },
  loaMonths: {
    ...integer(1, 120, (r) => `La durée doit être un nombre entier de mois entre ${r}.`),
    label: "Durée (mois)",
    section: "loa",
    only: LOA_ONLY,
  },
  loaPurchaseOption: {
    ...decimal(
      0,
      PRICE_MAX,
      (r) => `L'option d'achat doit être un montant entre ${r} € avec au plus 2 décimales.`,
    ),
    label: "Option d'achat (€ HT)",
    section: "loa",
    hint: "Avec un montant financé : calculée par le Barème LOA.",
    only: LOA_ONLY,
  },
  delivery: {
    kind: "choice",
    values: DELIVERY_STATES,
    labels: DELIVERY_STATE_LABELS,
    message: "L'état de livraison n'est pas valide.",
    fallback: "stock_24h",
    label: "Livraison",
    section: "delivery",
  },
  deliveryDays: {
    ...integer(1, 365, (r) => `Le délai doit être un nombre entier de jours entre ${r}.`),
    label: "Délai sur commande (jours)",
    section: "delivery",
    only: { field: "delivery", value: "on_order", message: "Réservé aux offres sur commande." },
  },
  datacenter: { kind: "reference", max: 40, label: "Datacenter", section: "delivery" },
  options: {
    kind: "options",
    max: 10_000,
    label: "Options (une ligne par choix)",
    section: "options",
    hint: "« Groupe | Choix | mensuel HT | mise en service HT », le premier choix d'un groupe étant inclus ; pour une quantité : « IPv4 supplémentaires | 0-16 | 2 | 5 » (montants par unité).",
  },
  financedAmount: {
    ...decimal(
      0,
      PRICE_MAX,
      (r) => `Le montant financé doit être un montant entre ${r} € avec au plus 2 décimales.`,
    ),
    label: "Montant financé (€ HT)",
    section: "loa",
    hint: "Loyer = montant financé × coefficient du Barème LOA pour la durée ci-dessus si elle est proposée, sinon la première proposée ; il devient le prix de l'offre.",
    only: LOA_ONLY,
  },
  leaseDurations: {
    kind: "months",
    max: 40,
    message: `Les durées sont à choisir parmi ${LEASE_DURATIONS.join(", ")} mois, séparées par des virgules.`,
    label: "Durées proposées (mois)",
    placeholder: LEASE_DURATIONS.join(", "),
    section: "loa",
    only: LOA_ONLY,
  },
  description: {
    kind: "text",
    max: 20_000,
    multiline: true,
    label: "Description (markdown)",
    subject: "La description",
    section: "text",
  },
  metaTitle: {
    kind: "text",
    max: 120,
    label: "Titre SEO (meta title)",
    subject: "Le titre SEO",
    section: "seo",
  },
  metaDescription: {
    kind: "text",
    max: 320,
    label: "Description SEO (meta description)",
    subject: "La description SEO",
    section: "seo",
  },
  engagement: { kind: "boolean", label: "Avec engagement", section: "flags" },
  isActive: { kind: "boolean", label: "Offre active", section: "flags" },
  featured: { kind: "boolean", label: "Offre mise en avant", section: "flags" },
} as const satisfies Record<string, OfferFieldSpec>;

export type OfferFields = typeof OFFER_FIELDS;
export type OfferField = keyof OfferFields;
export const OFFER_FIELD_NAMES = Object.keys(OFFER_FIELDS) as OfferField[];

type KindOf<F extends OfferField> = OfferFields[F]["kind"];

/** The form as the inputs hold it: strings, and booleans for checkboxes. */
export type OfferFormValues = {
  [F in OfferField]: KindOf<F> extends "boolean" ? boolean : string;
};

/** A field's value once validated, as the database column takes it. */
type InputValue<S> = S extends { kind: "boolean" }
  ? boolean
  : S extends { kind: "options" }
    ? OptionGroup[] | null
    : S extends { kind: "months" }
      ? number[] | null
      : S extends { kind: "price" }
        ? string | null
        : S extends { kind: "text"; required: true }
          ? string
          : S extends { kind: "choice"; values: readonly (infer V)[] }
            ? V
            : S extends { kind: "integer" }
              ? number | null
              : string | null;

export type OfferInput = { [F in OfferField]: InputValue<OfferFields[F]> } & { slug: string };

/** Fields of one kind, typed. */
export function fieldsOfKind<K extends OfferFieldSpec["kind"]>(kind: K) {
  return OFFER_FIELD_NAMES.filter((f) => OFFER_FIELDS[f].kind === kind) as {
    [F in OfferField]: KindOf<F> extends K ? F : never;
  }[OfferField][];
}

/** Maximum lengths of the text fields and the price cap, for maxLength and validation. */
export const OFFER_LIMITS = {
  ...(Object.fromEntries(fieldsOfKind("text").map((f) => [f, OFFER_FIELDS[f].max])) as {
    [F in ReturnType<typeof fieldsOfKind<"text">>[number]]: OfferFields[F]["max"];
  }),
  priceMax: PRICE_MAX,
};

/** The optional numbers (specs, fee, LOA terms): empty in the form, null in the database. */
export const OFFER_NUMBER_FIELDS = [...fieldsOfKind("integer"), ...fieldsOfKind("decimal")];
export type OfferNumberField = (typeof OFFER_NUMBER_FIELDS)[number];

/** Bounds of the optional numbers (wide enough for any real server, narrow enough for typos). */
export const OFFER_NUMBER_LIMITS = Object.fromEntries(
  OFFER_NUMBER_FIELDS.map((f) => [f, { min: OFFER_FIELDS[f].min, max: OFFER_FIELDS[f].max }]),
) as Record<OfferNumberField, { min: number; max: number }>;

/** Spec section 4: a new form starts as a dedicated server, without engagement, active, not featured. */
const DEFAULT_OVERRIDES: Partial<OfferFormValues> = {
  type: "dedicated",
  isActive: true,
  delivery: "stock_24h",
};

export const OFFER_FORM_DEFAULTS = Object.fromEntries(
  OFFER_FIELD_NAMES.map((f) => [
    f,
    DEFAULT_OVERRIDES[f] ?? (OFFER_FIELDS[f].kind === "boolean" ? false : ""),
  ]),
) as OfferFormValues;

// When an offer can be delivered (issue 21): one wording for cards, pages, mails and JSON-LD.

export type DeliverySource = { delivery: DeliveryState; deliveryDays: number | null };

/** 'En stock — livraison sous 24 h', 'Sur commande — 10 jours', 'Épuisé'. */
export function deliveryLabel({ delivery, deliveryDays }: DeliverySource): string {
  switch (delivery) {
    case "stock_24h":
      return "En stock — livraison sous 24 h";
    case "stock_72h":
      return "En stock — livraison sous 72 h";
    case "on_order":
      return deliveryDays
        ? `Sur commande — ${deliveryDays} ${deliveryDays > 1 ? "jours" : "jour"}`
        : "Sur commande";
    case "sold_out":
      return "Épuisé";
  }
}

/** Deliverable now: the listing's `available=1`. */
export const AVAILABLE_NOW: readonly DeliveryState[] = ["stock_24h", "stock_72h"];

export function isSoldOut({ delivery }: DeliverySource): boolean {
  return delivery === "sold_out";
}

/** The schema.org availability of the offer's JSON-LD. */
export function schemaOrgAvailability({ delivery }: DeliverySource): string {
  const map: Record<DeliveryState, string> = {
    stock_24h: "InStock",
    stock_72h: "InStock",
    on_order: "BackOrder",
    sold_out: "OutOfStock",
  };
  return `https://schema.org/${map[delivery]}`;
}

/** The badge's tone: green in stock, amber on order, grey sold out. */
export function deliveryTone({ delivery }: DeliverySource): "ok" | "wait" | "none" {
  return AVAILABLE_NOW.includes(delivery) ? "ok" : delivery === "on_order" ? "wait" : "none";
}
