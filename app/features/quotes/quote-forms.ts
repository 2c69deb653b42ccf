import { z } from "zod";
import { DEFAULT_QUOTE_VALIDITY_DAYS, QUOTE_VALIDITY_MAX_DAYS } from "~/lib/quote";

// The forms of issue 29: `Envoyer le devis` (admin) and the buyer's answers (public page).

/** Rows a quote can discount: the base offer and up to this many options. */
export const QUOTE_DISCOUNT_ROWS = 20;
export const discountField = (row: number) => `discount${row}`;

const percent = z
  .string()
  .optional()
  .transform((v) => (v ?? "").trim().replace(",", ".") || "0")
  .pipe(
    z
      .string()
      .regex(/^\d{1,3}(\.\d{1,2})?$/, "Une remise est un pourcentage entre 0 et 100.")
      .transform(Number)
      .refine((v) => v <= 100, "Une remise est un pourcentage entre 0 et 100."),
  );

export const quoteSendSchema = z.object({
  validity: z
    .string()
    .optional()
    .transform((v) => v?.trim() || String(DEFAULT_QUOTE_VALIDITY_DAYS))
    .pipe(
      z
        .string()
        .regex(/^\d{1,3}$/, "La validité est un nombre entier de jours.")
        .transform(Number)
        .refine((v) => v >= 1, "La validité est d'un jour au moins.")
        .refine(
          (v) => v <= QUOTE_VALIDITY_MAX_DAYS,
          `La validité est de ${QUOTE_VALIDITY_MAX_DAYS} jours au plus.`,
        ),
    ),
  ...(Object.fromEntries(
    Array.from({ length: QUOTE_DISCOUNT_ROWS }, (_, i) => [discountField(i), percent]),
  ) as Record<`discount${number}`, typeof percent>),
});

/** The send form as sendQuote takes it. */
export function quoteSendInput(form: z.infer<typeof quoteSendSchema>) {
  const fields = form as Record<string, unknown>;
  return {
    validityDays: form.validity,
    discounts: Array.from(
      { length: QUOTE_DISCOUNT_ROWS },
      (_, i) => (fields[discountField(i)] as number | undefined) ?? 0,
    ),
  };
}

const NAME_MAX = 100;
const ROLE_MAX = 100;
const REASON_MAX = 1000;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const line = (max: number, missing: string, label: string) =>
  z
    .string()
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .min(1, missing)
        .max(max, `${label} ne doit pas dépasser ${max} caractères.`)
        .refine((v) => !CONTROL.test(v), `${label} contient des caractères non autorisés.`),
    );

export const QUOTE_ANSWER_LIMITS = { name: NAME_MAX, role: ROLE_MAX, reason: REASON_MAX };

/** `Bon pour accord` or `Refuser`, posted from the quote's page. */
export const quoteAnswerSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("accept"),
    name: line(NAME_MAX, "Indiquez votre nom.", "Le nom"),
    role: line(ROLE_MAX, "Indiquez votre fonction.", "La fonction"),
    agree: z.literal("on", {
      message: "Cochez la case pour accepter le devis et les conditions générales de vente.",
    }),
  }),
  z.object({
    intent: z.literal("decline"),
    confirm: z.literal("on", { message: "Cochez la case pour confirmer le refus du devis." }),
    reason: z
      .string()
      .optional()
      .transform((v) => v?.trim() || null)
      .pipe(
        z
          .string()
          .max(REASON_MAX, `Le motif ne doit pas dépasser ${REASON_MAX} caractères.`)
          .nullable(),
      ),
  }),
]);
