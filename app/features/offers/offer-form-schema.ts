import { z } from "zod";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { CONTROL_CHARACTERS, CONTROL_CHARACTERS_EXCEPT_LINES } from "~/lib/limits";
import { fieldErrors, firstFieldError, type FieldErrors } from "~/lib/field-errors";
import {
  OFFER_FIELD_NAMES,
  OFFER_FIELDS,
  OFFER_LIMITS,
  type OfferField,
  type OfferFieldSpec,
  type OfferFormValues,
  type OfferInput,
} from "~/lib/offer-fields";
import { LEASE_DURATIONS } from "~/lib/offer-price";
import { parseOptionLines } from "~/lib/offer-options";
import { slugify } from "~/lib/slug";

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

// Empty gives null: allowed only for a financed LOA offer, whose price the scale gives (checked
// with the other fields below).
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
      .regex(
        /^(?:\d{1,9}(?:\.\d{1,2})?)?$/,
        "Le prix doit être un nombre positif avec au plus 2 décimales.",
      )
      .refine(
        (v) => Number(v) <= OFFER_LIMITS.priceMax,
        `Le prix ne doit pas dépasser ${OFFER_LIMITS.priceMax.toLocaleString("fr-FR")} €.`,
      )
      .transform((v) => (v === "" ? null : Number(v).toFixed(2))),
  );

// Typed numbers: spaces (thousands) and a euro sign are ignored, a decimal comma is read as a point.
const numberText = (v: string) =>
  clean(v)
    .replace(/[\s\u00a0\u202f€]/g, "")
    .replace(",", ".");

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

/** One field's schema from its row in the field table. */
function fieldSchema(spec: OfferFieldSpec): z.ZodType {
  const subject = spec.subject ?? spec.label;
  switch (spec.kind) {
    case "text":
      return spec.required
        ? required(subject, spec.max)
        : optional(subject, spec.max, spec.multiline ?? false);
    case "reference":
      return optional(spec.label, spec.max);
    case "months":
      return z
        .string()
        .max(spec.max, spec.message)
        .transform((v, ctx) => {
          const parts = v.split(/[\s,;]+/).filter(Boolean);
          const months = parts.map(Number);
          if (months.some((m) => !(LEASE_DURATIONS as readonly number[]).includes(m))) {
            ctx.addIssue({ code: "custom", message: spec.message });
            return z.NEVER;
          }
          return months.length ? [...new Set(months)].sort((a, b) => a - b) : null;
        });
    case "options":
      return z
        .string()
        .max(spec.max, tooLong("Les options", spec.max))
        .transform((v, ctx) => {
          const parsed = parseOptionLines(v);
          if (parsed.ok) return parsed.groups.length ? parsed.groups : null;
          ctx.addIssue({ code: "custom", message: parsed.message });
          return z.NEVER;
        });
    case "choice":
      return z
        .string()
        .transform((v) => v || (spec.fallback ?? v))
        .pipe(z.enum(spec.values as [string, ...string[]], spec.message));
    case "boolean":
      return z.boolean();
    case "price":
      return priceSchema;
    case "integer":
      return optionalInteger(spec.message, spec);
    case "decimal":
      return optionalDecimal(spec.message, spec);
  }
}

const offerInputSchema = z
  .object(
    Object.fromEntries(
      OFFER_FIELD_NAMES.map((field) => [field, fieldSchema(OFFER_FIELDS[field])]),
    ) as Record<OfferField, z.ZodType>,
  )
  .transform((offer, ctx) => {
    // A value that only another field's value gives a meaning to (LOA terms on a dedicated
    // server, a delay on an offer in stock) would be shown nowhere: refused rather than kept unseen.
    for (const field of OFFER_FIELD_NAMES) {
      const spec = OFFER_FIELDS[field] as OfferFieldSpec;
      if (
        spec.only &&
        offer[field] !== null &&
        offer[spec.only.field as OfferField] !== spec.only.value
      )
        ctx.addIssue({ code: "custom", path: [field], message: spec.only.message });
    }
    // A financed LOA offer's price and purchase option come from the scale (decision 038): what
    // the form sends for them (its read-only inputs) is not kept.
    if (offer.type === "loa" && offer.financedAmount !== null) {
      offer.price = null;
      offer.loaPurchaseOption = null;
    } else if (offer.price === null)
      ctx.addIssue({ code: "custom", path: ["price"], message: REQUIRED });
    if (offer.delivery === "on_order" && offer.deliveryDays === null)
      ctx.addIssue({
        code: "custom",
        path: ["deliveryDays"],
        message: "Indiquez le délai en jours.",
      });
    // Spec section 5: the slug comes from the title unless the administrator typed one.
    const typed = (offer.slug as string | null) ?? "";
    const slug = slugify(typed || (offer.title as string))
      .slice(0, OFFER_LIMITS.slug)
      .replace(/-+$/, "");
    if (!slug) {
      ctx.addIssue({
        code: "custom",
        path: ["slug"],
        message: typed ? "Le slug doit contenir au moins une lettre ou un chiffre." : REQUIRED,
      });
      return z.NEVER;
    }
    return { ...offer, slug } as OfferInput;
  });

export type { OfferInput };

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
