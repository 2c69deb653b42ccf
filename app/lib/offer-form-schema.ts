import { z } from "zod";
import { ADMIN_MESSAGES } from "./admin-messages";
import { CONTROL_CHARACTERS, CONTROL_CHARACTERS_EXCEPT_LINES } from "./contact";
import { OFFER_TYPES } from "./domain";
import { fieldErrors, firstFieldError, type FieldErrors } from "./field-errors";
import { OFFER_LIMITS, OFFER_NUMBER_LIMITS } from "./limits";
import type { OfferField, OfferFormValues } from "./offer-form";
import { slugify } from "./slug";

const REQUIRED = "Ce champ est obligatoire.";

// PostgreSQL refuses NUL in text; other control characters have no place in a one-line field.
// Both are refused with a message rather than silently changed: what is stored is what was typed
// (trimmed; the description's line breaks normalised to \n, as browsers send \r\n).
const clean = (v: string) => v.trim();
const cleanMultiline = (v: string) => v.replace(/\r\n?/g, "\n").trim();

const tooLong = (label: string, max: number) => `${label} ne doit pas dépasser ${max} caractères.`;
const forbidden = (label: string) => `${label} contient des caractères non autorisés.`;

const required = (label: string, max: number) =>
  z
    .string()
    .transform(clean)
    .pipe(
      z
        .string()
        .min(1, REQUIRED)
        .max(max, tooLong(label, max))
        .refine((v) => !CONTROL_CHARACTERS.test(v), forbidden(label)),
    );

const optional = (label: string, max: number, multiline = false) =>
  z
    .string()
    .transform((v) => (multiline ? cleanMultiline(v) : clean(v)))
    .pipe(
      z
        .string()
        .max(max, tooLong(label, max))
        .refine(
          (v) => !(multiline ? CONTROL_CHARACTERS_EXCEPT_LINES : CONTROL_CHARACTERS).test(v),
          forbidden(label),
        ),
    )
    .transform((v) => (v === "" ? null : v));

const priceSchema = z
  .string()
  .transform((v) =>
    clean(v)
      .replace(/[\s\u00a0\u202f€]/g, "")
      .replace(",", "."),
  )
  .pipe(
    z
      .string()
      .min(1, REQUIRED)
      .regex(
        /^\d{1,9}(?:\.\d{1,2})?$/,
        "Le prix doit être un nombre positif avec au plus 2 décimales.",
      )
      .refine(
        (v) => Number(v) <= OFFER_LIMITS.priceMax,
        `Le prix ne doit pas dépasser ${OFFER_LIMITS.priceMax.toLocaleString("fr-FR")} €.`,
      )
      .transform((v) => Number(v).toFixed(2)),
  );

// Typed numbers: spaces (thousands) and a euro sign are ignored, a decimal comma is read as a point.
const numberText = (v: string) =>
  clean(v)
    .replace(/[\s\u00a0\u202f€]/g, "")
    .replace(",", ".");
const frenchNumber = (n: number) => n.toLocaleString("fr-FR");

/** An optional whole number within bounds: '' gives null. */
const optionalInteger = (message: string, { min, max }: { min: number; max: number }) =>
  z
    .string()
    .transform(numberText)
    .refine((v) => v === "" || (/^\d{1,9}$/.test(v) && +v >= min && +v <= max), message)
    .transform((v) => (v === "" ? null : Number(v)));

/** An optional amount or quantity with at most 2 decimals: '' gives null, else '12.50'. */
const optionalDecimal = (message: string, { min, max }: { min: number; max: number }) =>
  z
    .string()
    .transform(numberText)
    .refine(
      (v) => v === "" || (/^\d{1,9}(?:\.\d{1,2})?$/.test(v) && +v >= min && +v <= max),
      message,
    )
    .transform((v) => (v === "" ? null : Number(v).toFixed(2)));

const N = OFFER_NUMBER_LIMITS;
const range = ({ min, max }: { min: number; max: number }) =>
  `${frenchNumber(min)} et ${frenchNumber(max)}`;
const LOA_ONLY = "Réservé aux offres de type Location LOA.";

const offerInputSchema = z
  .object({
    title: required("Le titre", OFFER_LIMITS.title),
    reference: required("La référence", OFFER_LIMITS.reference),
    slug: z
      .string()
      .transform(clean)
      .pipe(z.string().max(OFFER_LIMITS.slug, tooLong("Le slug", OFFER_LIMITS.slug))),
    description: optional("La description", OFFER_LIMITS.description, true),
    type: z.enum(OFFER_TYPES, "Le type d'offre n'est pas valide."),
    featured: z.boolean(),
    cpu: required("Le processeur", OFFER_LIMITS.cpu),
    ram: required("La mémoire RAM", OFFER_LIMITS.ram),
    storage: required("Le stockage", OFFER_LIMITS.storage),
    network: optional("Le réseau", OFFER_LIMITS.network),
    price: priceSchema,
    engagement: z.boolean(),
    contractType: optional("Le type de contrat", OFFER_LIMITS.contractType),
    metaTitle: optional("Le titre SEO", OFFER_LIMITS.metaTitle),
    metaDescription: optional("La description SEO", OFFER_LIMITS.metaDescription),
    isActive: z.boolean(),
    cpuCores: optionalInteger(
      `Le nombre de cœurs doit être un nombre entier entre ${range(N.cpuCores)}.`,
      N.cpuCores,
    ),
    ramGb: optionalInteger(
      `La RAM doit être un nombre entier de Go entre ${range(N.ramGb)}.`,
      N.ramGb,
    ),
    storageTb: optionalDecimal(
      `Le stockage doit être un nombre de To entre ${range(N.storageTb)} (2 décimales au plus).`,
      N.storageTb,
    ),
    bandwidthGbps: optionalDecimal(
      `La bande passante doit être un nombre de Gbit/s entre ${range(N.bandwidthGbps)} (2 décimales au plus).`,
      N.bandwidthGbps,
    ),
    setupFee: optionalDecimal(
      `Les frais de mise en service doivent être un montant entre 0 et ${frenchNumber(OFFER_LIMITS.priceMax)} € avec au plus 2 décimales.`,
      { min: 0, max: OFFER_LIMITS.priceMax },
    ),
    loaMonths: optionalInteger(
      `La durée doit être un nombre entier de mois entre ${N.loaMonths.min} et ${N.loaMonths.max}.`,
      N.loaMonths,
    ),
    loaPurchaseOption: optionalDecimal(
      `L'option d'achat doit être un montant entre 0 et ${frenchNumber(OFFER_LIMITS.priceMax)} € avec au plus 2 décimales.`,
      { min: 0, max: OFFER_LIMITS.priceMax },
    ),
  })
  .transform((offer, ctx) => {
    // LOA terms on a dedicated server would be shown nowhere: refused rather than kept unseen.
    if (offer.type !== "loa") {
      for (const field of ["loaMonths", "loaPurchaseOption"] as const) {
        if (offer[field] !== null)
          ctx.addIssue({ code: "custom", path: [field], message: LOA_ONLY });
      }
    }
    // Spec section 5: the slug comes from the title unless the administrator typed one.
    const slug = slugify(offer.slug || offer.title)
      .slice(0, OFFER_LIMITS.slug)
      .replace(/-+$/, "");
    if (!slug) {
      ctx.addIssue({
        code: "custom",
        path: ["slug"],
        message: offer.slug ? "Le slug doit contenir au moins une lettre ou un chiffre." : REQUIRED,
      });
      return z.NEVER;
    }
    return { ...offer, slug };
  });

export type OfferInput = z.output<typeof offerInputSchema>;

export type OfferFormResult =
  | { success: true; data: OfferInput }
  | {
      success: false;
      /** True when a required field is empty: the spec's 'Veuillez remplir tous les champs obligatoires'. */
      missing: boolean;
      message: string;
      fieldErrors: FieldErrors<OfferField>;
    };

export function parseOfferForm(values: OfferFormValues): OfferFormResult {
  const parsed = offerInputSchema.safeParse(values);
  if (parsed.success) return { success: true, data: parsed.data };
  const errors = fieldErrors<OfferField>(parsed.error);
  const missing = Object.values(errors).includes(REQUIRED);
  return {
    success: false,
    missing,
    message: missing
      ? ADMIN_MESSAGES.offerMissingFields
      : firstFieldError(errors, ADMIN_MESSAGES.offerInvalid),
    fieldErrors: errors,
  };
}
