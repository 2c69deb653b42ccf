import { and, asc, count, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { likePattern, type OfferFilters } from "~/lib/offer-filters";
import { db, type Database } from "./db.server";
import { offers, type Offer } from "./schema.server";

export const LISTING_PAGE_SIZE = 24;

/** The columns an offer's summary needs (public card, admin list). */
export const cardColumns = {
  id: offers.id,
  slug: offers.slug,
  title: offers.title,
  reference: offers.reference,
  type: offers.type,
  featured: offers.featured,
  cpu: offers.cpu,
  ram: offers.ram,
  storage: offers.storage,
  price: offers.price,
  engagement: offers.engagement,
  contractType: offers.contractType,
};

export type OfferCardData = {
  [K in keyof typeof cardColumns]: Offer[K];
};

/** Spec section 7, Listing: active offers only, the filters combined with AND. */
export function listingConditions(filters: OfferFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(offers.isActive, true)];
  if (filters.type) conditions.push(eq(offers.type, filters.type));
  if (filters.minPrice !== undefined) conditions.push(gte(offers.price, String(filters.minPrice)));
  if (filters.maxPrice !== undefined) conditions.push(lte(offers.price, String(filters.maxPrice)));
  if (filters.commitment !== undefined) conditions.push(eq(offers.engagement, filters.commitment));
  if (filters.searchTerm) {
    // Case-insensitive substring of title, reference, cpu or ram: search_text holds the four,
    // lower-cased, with a separator that no search term contains (schema.server.ts).
    const pattern = likePattern(filters.searchTerm);
    conditions.push(sql`${offers.searchText} like lower(${pattern})`);
  }
  return and(...conditions);
}

/** One page of the listing, newest first, with the total count of matches. */
export async function listActiveOffers(
  filters: OfferFilters,
  page = 1,
  pageSize = LISTING_PAGE_SIZE,
  database: Database = db(),
): Promise<{ offers: OfferCardData[]; total: number }> {
  const where = listingConditions(filters);
  const [{ total }] = await database.select({ total: count() }).from(offers).where(where);
  if (total === 0) return { offers: [], total };
  const rows = await database
    .select(cardColumns)
    .from(offers)
    .where(where)
    .orderBy(desc(offers.createdAt), desc(offers.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { offers: rows, total };
}

export async function findActiveOfferBySlug(slug: string, database: Database = db()) {
  const [offer] = await database
    .select()
    .from(offers)
    .where(and(eq(offers.slug, slug), eq(offers.isActive, true)))
    .limit(1);
  return offer;
}

export async function findActiveOfferById(id: number, database: Database = db()) {
  const [offer] = await database
    .select()
    .from(offers)
    .where(and(eq(offers.id, id), eq(offers.isActive, true)))
    .limit(1);
  return offer;
}

/** Contact selector: active offers as id, title, reference and price, by title. */
export function listOfferChoices(database: Database = db()) {
  return database
    .select({
      id: offers.id,
      title: offers.title,
      reference: offers.reference,
      price: offers.price,
    })
    .from(offers)
    .where(eq(offers.isActive, true))
    .orderBy(asc(offers.title), asc(offers.id));
}

export type OfferChoice = Awaited<ReturnType<typeof listOfferChoices>>[number];
