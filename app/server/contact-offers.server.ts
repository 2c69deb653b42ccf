import { and, asc, count, eq, or, sql } from "drizzle-orm";
import { likePattern } from "~/lib/offer-filters";
import { OFFER_SEARCH, OFFER_SEARCH_SHORT_MESSAGE, parseOfferSearchTerm } from "~/lib/offer-search";
import { db, type Database } from "./db.server";
import { env } from "./env.server";
import { listOfferChoices, type OfferChoice } from "./offers.server";
import { offers } from "./schema.server";

// The contact form's offer field (issue 11, docs/decisions/019): the spec's selector of every
// active offer while the catalogue is small, a search by title or reference beyond.

const choiceColumns = {
  id: offers.id,
  title: offers.title,
  reference: offers.reference,
  price: offers.price,
};

export async function countActiveOffers(database: Database = db()): Promise<number> {
  const [{ total }] = await database
    .select({ total: count() })
    .from(offers)
    .where(eq(offers.isActive, true));
  return total;
}

/** An active offer as the field shows it, or undefined. */
export async function findOfferChoice(
  id: number | null | undefined,
  database: Database = db(),
): Promise<OfferChoice | undefined> {
  if (!id) return undefined;
  const [row] = await database
    .select(choiceColumns)
    .from(offers)
    .where(and(eq(offers.id, id), eq(offers.isActive, true)))
    .limit(1);
  return row;
}

/**
 * Active offers whose title or reference contains `term` (any case), by title, at most `limit`;
 * `more` when there are others. The trigram index on search_text (title, reference, cpu, ram)
 * narrows the rows; the title/reference test then drops matches found only in cpu or ram.
 */
export async function searchOfferChoices(
  term: string,
  limit: number = OFFER_SEARCH.limit,
  database: Database = db(),
): Promise<{ offers: OfferChoice[]; more: boolean }> {
  const pattern = likePattern(term);
  const rows = await database
    .select(choiceColumns)
    .from(offers)
    .where(
      and(
        eq(offers.isActive, true),
        sql`${offers.searchText} like lower(${pattern})`,
        or(
          sql`lower(${offers.title}) like lower(${pattern})`,
          sql`lower(${offers.reference}) like lower(${pattern})`,
        ),
      ),
    )
    .orderBy(asc(offers.title), asc(offers.id))
    .limit(limit + 1);
  return { offers: rows.slice(0, limit), more: rows.length > limit };
}

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
