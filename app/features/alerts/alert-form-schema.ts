import { z } from "zod";
import { CONTACT_LIMITS, CONTROL_CHARACTERS } from "~/lib/limits";

const EMAIL_MISSING = "Veuillez saisir votre adresse e-mail.";
const EMAIL_INVALID = "Veuillez saisir une adresse e-mail valide.";

/** `Me prévenir` as posted (issue 30): the address only; the offer is in the form's address. */
export const alertFormSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, EMAIL_MISSING)
    .max(CONTACT_LIMITS.email, EMAIL_INVALID)
    .refine((v) => !CONTROL_CHARACTERS.test(v), EMAIL_INVALID)
    .pipe(z.email(EMAIL_INVALID)),
});

/** The offer's slug in `/alertes?offre=`: anything that cannot be a slug reads as none. */
export const alertOfferParam = z
  .string()
  .max(200)
  .regex(/^[a-z0-9-]+$/)
  .optional()
  .catch(undefined);

/** A link's token as posted back by its page's button: anything else reads as none. */
export const alertTokenParam = z.string().max(100).optional().catch(undefined);
