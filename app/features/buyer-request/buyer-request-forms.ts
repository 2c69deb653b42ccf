import { z } from "zod";
import { CONTACT_LIMITS, CONTROL_CHARACTERS, CONTROL_CHARACTERS_EXCEPT_LINES } from "~/lib/limits";

// The forms of `Ma demande` (issue 42): a message from the buyer's page, and the link asked again.

export const BUYER_MESSAGE_LIMIT = CONTACT_LIMITS.message;

export const buyerMessageSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, "Veuillez écrire votre message.")
    .max(BUYER_MESSAGE_LIMIT, `${BUYER_MESSAGE_LIMIT} caractères au plus.`)
    .refine((v) => !CONTROL_CHARACTERS_EXCEPT_LINES.test(v), "Caractères non autorisés."),
});

const EMAIL_INVALID = "Veuillez saisir une adresse e-mail valide.";

export const linkAskSchema = z.object({
  reference: z
    .string()
    .trim()
    .min(1, "Veuillez saisir la référence de votre demande.")
    .max(30, "Référence de la forme DEM-2026-00042.")
    .regex(/^DEM-\d{4}-\d{5,10}$/i, "Référence de la forme DEM-2026-00042."),
  email: z
    .string()
    .trim()
    .min(1, "Veuillez saisir votre adresse e-mail.")
    .max(CONTACT_LIMITS.email, EMAIL_INVALID)
    .refine((v) => !CONTROL_CHARACTERS.test(v), EMAIL_INVALID)
    .pipe(z.email(EMAIL_INVALID)),
});
