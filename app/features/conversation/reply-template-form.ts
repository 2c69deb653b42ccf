import { z } from "zod";
import { CONTROL_CHARACTERS, CONTROL_CHARACTERS_EXCEPT_LINES } from "~/lib/limits";
import { REPLY_BODY_MAX } from "./reply-form";

// `Modèles de réponse` (issue 40): texts the sales team keeps to start a message to the buyer.
// Their fields and limits, shared by the page's forms and its action, and the placeholders a
// template's text may use, replaced on the request's page.

export const REPLY_TEMPLATE_TITLE_MAX = 80;
export const REPLY_TEMPLATE_BODY_MAX = 5_000;

export const replyTemplateSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, "Indiquez le titre du modèle.")
    .max(
      REPLY_TEMPLATE_TITLE_MAX,
      `Le titre tient en ${REPLY_TEMPLATE_TITLE_MAX} caractères au plus.`,
    )
    .refine((title) => !CONTROL_CHARACTERS.test(title), "Le titre tient sur une ligne."),
  body: z
    .string()
    .trim()
    .min(1, "Écrivez le texte du modèle.")
    .max(
      REPLY_TEMPLATE_BODY_MAX,
      `Le texte tient en ${REPLY_TEMPLATE_BODY_MAX} caractères au plus.`,
    )
    .refine(
      (body) => !CONTROL_CHARACTERS_EXCEPT_LINES.test(body),
      "Le texte contient des caractères non autorisés.",
    ),
});

export type ReplyTemplateInput = z.output<typeof replyTemplateSchema>;
export type ReplyTemplateFields = keyof ReplyTemplateInput;

/** The message a duplicate title gets (titles are unique whatever their case). */
export const DUPLICATE_TITLE = "Un modèle porte déjà ce titre.";

/** What a template may name, and what it becomes in the message (documented on the page). */
export const REPLY_TEMPLATE_PLACEHOLDERS = {
  nom: "le nom du client",
  reference: "la référence de la demande (DEM-…)",
  offre: "le titre de l'offre demandée, ou « votre demande » pour une demande générale",
  signature: "votre adresse e-mail (celle du compte qui écrit)",
} as const;

export type ReplyTemplateValues = Record<keyof typeof REPLY_TEMPLATE_PLACEHOLDERS, string>;

/**
 * A template's text with its placeholders replaced, in one pass (a buyer's name that reads
 * `{offre}` stays as written); other braces are left alone. Cut to the message's own limit.
 */
export function applyReplyTemplate(body: string, values: ReplyTemplateValues): string {
  return body
    .replace(
      /\{(nom|reference|offre|signature)\}/g,
      (_, key: keyof ReplyTemplateValues) => values[key],
    )
    .slice(0, REPLY_BODY_MAX);
}
