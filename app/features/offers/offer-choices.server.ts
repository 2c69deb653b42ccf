import { and, asc, count, eq, or, sql } from "drizzle-orm";
import { likePattern } from "~/lib/offer-filters";
import { OFFER_SEARCH } from "~/lib/offer-search";
import { db, type Database } from "~/platform/db.server";
import { offers } from "~/platform/schema.server";

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

/** Contact selector: active offers as id, title, reference and price, by title. */
export function listOfferChoices(database: Database = db()) {
  return database
    .select(choiceColumns)
    .from(offers)
    .where(eq(offers.isActive, true))
    .orderBy(asc(offers.title), asc(offers.id));
}

export type OfferChoice = Awaited<ReturnType<typeof listOfferChoices>>[number];
