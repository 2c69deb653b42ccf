import { and, asc, count, eq } from "drizzle-orm";
import { OFFER_SEARCH } from "~/lib/offer-search";
import { db, type Database } from "~/platform/db.server";
import { offers } from "~/platform/schema.server";
import { searchOfferTitles } from "./offer-listing.server";

// The contact form's offer field (docs/decisions/019): every active offer while the catalogue is
// small, a search by title or reference beyond.

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
 * `more` when there are others: the catalogue's index answers, as for the listing and the API.
 */
export async function searchOfferChoices(
  term: string,
  limit: number = OFFER_SEARCH.limit,
  database: Database = db(),
): Promise<{ offers: OfferChoice[]; more: boolean }> {
  const found = await searchOfferTitles(term, limit, database);
  return {
    offers: found.offers.map(({ id, title, reference, price }) => ({
      id,
      title,
      reference,
      price,
    })),
    more: found.more,
  };
}

/** Contact selector: active offers as id, title, reference and price, by title. */
export function listOfferChoices(database: Database = db()) {
  return database
    .select(choiceColumns)
    .from(offers)
    .where(eq(offers.isActive, true))
    .orderBy(asc(offers.title), asc(offers.id));
}

export type OfferChoice = Awaited<ReturnType<typeof listOfferChoices>>[number];
