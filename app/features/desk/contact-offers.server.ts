import { OFFER_SEARCH, OFFER_SEARCH_SHORT_MESSAGE, parseOfferSearchTerm } from "~/lib/offer-search";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import {
  countActiveOffers,
  findOfferChoice,
  listOfferChoices,
  searchOfferChoices,
  type OfferChoice,
} from "~/features/offers/offer-choices.server";

// The contact form's offer field (issue 11, docs/decisions/019): the spec's selector of every
// active offer while the catalogue is small, a search by title or reference beyond.

export type ContactOfferField =
  | { mode: "select"; choices: OfferChoice[]; preselected?: OfferChoice }
  | {
      mode: "search";
      /** What the visitor searched without JavaScript (`?offer_q=`), as typed. */
      query: string;
      /** null: no search asked (or too short / invalid, see `notice`). */
      results: OfferChoice[] | null;
      more: boolean;
      notice?: string;
      preselected?: OfferChoice;
    };

/**
 * What /contact's loader needs for the offer field: `offer` (preselection, an id) and, in search
 * mode, `offer_q` (the search of the page without JavaScript).
 */
export async function loadContactOfferField(
  params: { offer?: number; offerQuery: string | null },
  database: Database = db(),
): Promise<ContactOfferField> {
  const total = await countActiveOffers(database);
  if (total <= env().CONTACT_OFFER_SELECT_MAX) {
    const choices = await listOfferChoices(database);
    // An unknown or inactive offer in the link is ignored: the form starts on 'Demande générale'.
    return { mode: "select", choices, preselected: choices.find((c) => c.id === params.offer) };
  }
  const preselected = await findOfferChoice(params.offer, database);
  const term = parseOfferSearchTerm(params.offerQuery);
  const query = params.offerQuery ?? "";
  if (term.status === "ok") {
    const found = await searchOfferChoices(term.term, OFFER_SEARCH.limit, database);
    return { mode: "search", query, results: found.offers, more: found.more, preselected };
  }
  const notice =
    term.status === "invalid"
      ? term.message
      : term.status === "short"
        ? OFFER_SEARCH_SHORT_MESSAGE
        : undefined;
  return { mode: "search", query, results: null, more: false, notice, preselected };
}

/**
 * The offer of a refused contact post, to show it again: a search page does not list every offer.
 * Never throws (it also runs when the database has just failed).
 */
export async function postedOfferChoice(
  raw: string,
  database?: Database,
): Promise<OfferChoice | undefined> {
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) return undefined;
  try {
    return await findOfferChoice(Number(raw), database);
  } catch {
    return undefined;
  }
}
