import { z } from "zod";
import { parisDay } from "~/lib/dates";
import { CONTACT_LIMITS } from "~/lib/limits";

export const PERSONAL_DATA_MESSAGES = {
  emailMissing: "Veuillez saisir l'adresse e-mail de la personne concernée.",
  emailInvalid: "Veuillez saisir une adresse e-mail valide.",
  badRequest: "Requête invalide : l'effacement demande une adresse e-mail.",
} as const;

/** The address an administrator looks up, exports or erases (same rules as the contact form's). */
export const personalDataEmailSchema = z
  .string(PERSONAL_DATA_MESSAGES.emailMissing)
  .trim()
  .min(1, PERSONAL_DATA_MESSAGES.emailMissing)
  .max(CONTACT_LIMITS.email, PERSONAL_DATA_MESSAGES.emailInvalid)
  .pipe(z.email(PERSONAL_DATA_MESSAGES.emailInvalid));

/** intent=erase with the address; `confirm=yes` once the administrator has confirmed. */
export const erasureFormSchema = z.object({
  intent: z.literal("erase", PERSONAL_DATA_MESSAGES.badRequest),
  email: personalDataEmailSchema,
  confirm: z.enum(["yes"]).optional(),
});

/** The first French message of a failed parse. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? PERSONAL_DATA_MESSAGES.emailInvalid;
}

/** 'donnees-personnelles-2026-11-23.json', the day in Paris (the address stays out of file names). */
export function exportFileName(now: Date): string {
  return `donnees-personnelles-${parisDay(now)}.json`;
}
