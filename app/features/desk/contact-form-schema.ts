import { z } from "zod";
import { CONTACT_LIMITS, CONTROL_CHARACTERS, CONTROL_CHARACTERS_EXCEPT_LINES } from "~/lib/limits";
import { MESSAGES } from "~/lib/messages";
import { COMPANY_MAX, compactSiren, isValidSiren, SIREN_MESSAGES } from "~/lib/siren";

const text = (max: number, label: string, control = CONTROL_CHARACTERS) =>
  z
    .string()
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .min(1, MESSAGES.contactMissing.description)
        .max(max, `${label} ne doit pas dépasser ${max} caractères.`)
        .refine((v) => !control.test(v), `${label} contient des caractères non autorisés.`),
    );

/** The contact form as posted (spec section 5). 'general' or empty offer means no offer. */
export const contactFormSchema = z.object({
  name: text(CONTACT_LIMITS.name, "Le nom"),
  email: text(CONTACT_LIMITS.email, "L'adresse e-mail").pipe(
    z.email("Veuillez saisir une adresse e-mail valide."),
  ),
  phone: z
    .string()
    .optional()
    .transform((v) => v?.trim() || null)
    .pipe(
      z
        .string()
        .max(
          CONTACT_LIMITS.phone,
          `Le téléphone ne doit pas dépasser ${CONTACT_LIMITS.phone} caractères.`,
        )
        .regex(
          /^[0-9+(). \u00a0\u202f-]+$/,
          "Le numéro de téléphone contient des caractères non valides.",
        )
        .nullable(),
    ),
  // The buyer's company (issue 29): optional; the SIREN is required for an LOA offer, which the
  // action checks once it knows the offer's type (contact-company.server.ts).
  company: z
    .string()
    .optional()
    .transform((v) => v?.trim() || null)
    .pipe(
      z
        .string()
        .max(COMPANY_MAX, `La société ne doit pas dépasser ${COMPANY_MAX} caractères.`)
        .refine(
          (v) => !CONTROL_CHARACTERS.test(v),
          "La société contient des caractères non autorisés.",
        )
        .nullable(),
    ),
  siren: z
    .string()
    .optional()
    .transform((v) => (v ? compactSiren(v) : "") || null)
    .pipe(z.string().refine(isValidSiren, SIREN_MESSAGES.invalid).nullable()),
  message: text(CONTACT_LIMITS.message, "Le message", CONTROL_CHARACTERS_EXCEPT_LINES),
  offer: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" || v === "general" ? null : v))
    .pipe(
      z
        .string()
        .regex(/^[1-9]\d{0,9}$/, "L'offre sélectionnée n'est pas valide.")
        .transform(Number)
        // Offer ids are PostgreSQL integers: a larger number cannot be one (and would fail the query).
        .refine((id) => id <= 2_147_483_647, "L'offre sélectionnée n'est pas valide.")
        .nullable(),
    ),
});

export type ContactInput = z.infer<typeof contactFormSchema>;
