// The pure part of the contact form's offer combobox (contact-offer-search.ts).
import type { OfferSearchAnswer } from "~/routes/resources/contact-offers";
import { GENERAL_REQUEST_LABEL, offerChoiceLabel } from "~/features/desk/offer-choice";
import type { ShownOffer } from "./offer-choice";

/** The first option: no offer. */
export const GENERAL_CHOICE: ShownOffer = {
  id: "",
  title: GENERAL_REQUEST_LABEL,
  reference: "",
  price: "",
};

export const SEARCH_UNAVAILABLE =
  "La recherche est indisponible pour le moment. Veuillez réessayer.";

/** What the listbox shows: its options (general first) and what the live region says. */
export type ComboboxResult = { choices: ShownOffer[]; message: string; cacheable: boolean };

export function comboboxResult(answer: OfferSearchAnswer): ComboboxResult {
  if ("error" in answer)
    return { choices: [GENERAL_CHOICE], message: answer.error, cacheable: false };
  const found = answer.offers.map((o) => ({ ...o, id: String(o.id) }));
  return { choices: [GENERAL_CHOICE, ...found], message: answer.summary, cacheable: true };
}

/** An option's text: 'Title (Reference)', or 'Demande générale'. */
export function choiceLabel(choice: ShownOffer): string {
  return choice.id ? offerChoiceLabel(choice) : choice.title;
}

/**
 * The active option after an arrow key (WAI-ARIA APG list autocomplete): a closed list opens on
 * the first option (none with Alt+Down) or the last; an open one moves and stops at its ends.
 */
export function arrowTarget(
  key: "ArrowDown" | "ArrowUp",
  list: { open: boolean; active: number; count: number; altKey: boolean },
): number {
  const { open, active, count, altKey } = list;
  if (key === "ArrowDown") {
    if (!open) return altKey ? -1 : 0;
    return Math.min(active + 1, count - 1);
  }
  if (!open) return count - 1;
  return active < 0 ? count - 1 : Math.max(active - 1, 0);
}
