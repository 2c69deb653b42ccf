import { z } from "zod";
import { CONTACT_LIMITS } from "./limits";
import { MESSAGES } from "./messages";

const text = (max: number, label: string) =>
  z
    .string()
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .min(1, MESSAGES.contactMissing.description)
        .max(max, `${label} ne doit pas dépasser ${max} caractères.`),
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
        .regex(/^[0-9+().\s-]+$/, "Le numéro de téléphone contient des caractères non valides.")
        .nullable(),
    ),
  message: text(CONTACT_LIMITS.message, "Le message"),
  offer: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" || v === "general" ? null : v))
    .pipe(
      z
        .string()
        .regex(/^[1-9]\d{0,9}$/, "L'offre sélectionnée n'est pas valide.")
        .transform(Number)
        .nullable(),
    ),
});

export type ContactInput = z.infer<typeof contactFormSchema>;
