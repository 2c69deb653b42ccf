import { z } from "zod";
import { CONTROL_CHARACTERS } from "./limits";

/** The contact form's offer search (issue 11): how much is asked and how much is answered. */
export const OFFER_SEARCH = {
  /** Shorter terms match most of a large catalogue and cannot use the trigram index. */
  minLength: 2,
  maxLength: 100,
  /** Results per answer, for the combobox and the page without JavaScript alike. */
  limit: 20,
} as const;

export type OfferSearchTerm =
  | { status: "empty" }
  | { status: "short"; term: string }
  | { status: "ok"; term: string }
  | { status: "invalid"; message: string };

const termSchema = z
  .string()
  .transform((v) => v.trim().replace(/\s+/g, " "))
  .pipe(
    z
      .string()
      .max(
        OFFER_SEARCH.maxLength,
        `La recherche ne doit pas dépasser ${OFFER_SEARCH.maxLength} caractères.`,
      )
      .refine(
        (v) => !CONTROL_CHARACTERS.test(v),
        "La recherche contient des caractères non autorisés.",
      ),
  );

/** Reads a search term from a query string value (absent, repeated or junk included). */
export function parseOfferSearchTerm(raw: string | null | undefined): OfferSearchTerm {
  if (raw === null || raw === undefined) return { status: "empty" };
  const parsed = termSchema.safeParse(raw);
  if (!parsed.success) return { status: "invalid", message: parsed.error.issues[0].message };
  const term = parsed.data;
  if (term === "") return { status: "empty" };
  if ([...term].length < OFFER_SEARCH.minLength) return { status: "short", term };
  return { status: "ok", term };
}

/** The live region's and the page's line: 'N offre(s) trouvée(s)', or fewer shown than found. */
export function offerSearchSummary(count: number, more: boolean): string {
  if (count === 0) return "Aucune offre ne correspond à votre recherche.";
  if (more) return `Plus de ${count} offres trouvées : précisez votre recherche.`;
  return count === 1 ? "1 offre trouvée" : `${count} offres trouvées`;
}

export const OFFER_SEARCH_SHORT_MESSAGE = `Saisissez au moins ${OFFER_SEARCH.minLength} caractères du titre ou de la référence.`;
