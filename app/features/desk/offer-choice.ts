// How an offer reads where a contact request chooses it (spec section 2): the selector's options,
// the search's radio buttons and combobox options.

/** The choice that stores no offer. */
export const GENERAL_REQUEST_LABEL = "Demande générale";

/** 'Title (Reference)'. */
export function offerChoiceLabel(choice: { title: string; reference: string }): string {
  return `${choice.title} (${choice.reference})`;
}
