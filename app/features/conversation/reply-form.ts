import { z } from "zod";

// The message a salesperson writes to the buyer from the request's page (issue 40): its form's
// fields and limits, shared by the page and its action.

export const REPLY_SUBJECT_MAX = 200;
export const REPLY_BODY_MAX = 10_000;

export const replyFormSchema = z.object({
  intent: z.literal("reply"),
  subject: z
    .string()
    .trim()
    .min(1, "Indiquez l'objet du message.")
    .max(REPLY_SUBJECT_MAX, `L'objet tient en ${REPLY_SUBJECT_MAX} caractères au plus.`)
    .refine((subject) => !/[\r\n]/.test(subject), "L'objet tient sur une ligne."),
  body: z
    .string()
    .trim()
    .min(1, "Écrivez votre message.")
    .max(REPLY_BODY_MAX, `Le message tient en ${REPLY_BODY_MAX} caractères au plus.`),
  // `Joindre le devis …`: a check box, sent only when ticked.
  attachQuote: z.literal("on").optional(),
});

export type ReplyFields = "subject" | "body" | "attachQuote";

/**
 * The subject a new message starts with: the conversation's (the buyer's own words, answered with
 * `Re :`), or the request's reference, which every message keeps in sight.
 */
export function replySubject(reference: string, last: { subject: string } | undefined): string {
  if (!last) return `Votre demande ${reference}`;
  return /^re ?:/i.test(last.subject) ? last.subject : `Re : ${last.subject}`;
}
