import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { DEFAULT_SORT, likePattern, type OfferFilters, type OfferSort } from "~/lib/offer-filters";
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
  setupFee: offers.setupFee,
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
  // NULL >= n is not true: an offer without the number is left out once the filter is set.
  if (filters.ramMin !== undefined) conditions.push(gte(offers.ramGb, filters.ramMin));
  if (filters.coresMin !== undefined) conditions.push(gte(offers.cpuCores, filters.coresMin));
  if (filters.commitment !== undefined) conditions.push(eq(offers.engagement, filters.commitment));
  if (filters.searchTerm) {
    // Case-insensitive substring of title, reference, cpu or ram: search_text holds the four,
    // lower-cased, with a separator that no search term contains (schema.server.ts).
    const pattern = likePattern(filters.searchTerm);
    conditions.push(sql`${offers.searchText} like lower(${pattern})`);
  }
  return and(...conditions);
}

/**
 * Each order follows an index from its first column to its tie-breaker (schema.server.ts), so a
 * page is read in index order: (is_active, created_at desc, id desc) for the newest first,
 * (is_active, price, id) forwards or backwards for the prices. Equal prices keep a stable order.
 */
const ORDERS: Record<OfferSort, SQL[]> = {
  newest: [desc(offers.createdAt), desc(offers.id)],
  price_asc: [asc(offers.price), asc(offers.id)],
  price_desc: [desc(offers.price), desc(offers.id)],
};

/** One page of the listing in the chosen order (newest first by default), with the total count. */
export async function listActiveOffers(
  filters: OfferFilters,
  page = 1,
  pageSize = LISTING_PAGE_SIZE,
  database: Database = db(),
  sort: OfferSort = DEFAULT_SORT,
): Promise<{ offers: OfferCardData[]; total: number }> {
  const where = listingConditions(filters);
  const [{ total }] = await database.select({ total: count() }).from(offers).where(where);
  if (total === 0) return { offers: [], total };
  const rows = await listingPageQuery(filters, page, pageSize, database, sort);
  return { offers: rows, total };
}

/** The query of one listing page (exported for the test that reads its plan). */
export function listingPageQuery(
  filters: OfferFilters,
  page: number,
  pageSize: number,
  database: Database,
  sort: OfferSort,
) {
  return database
    .select(cardColumns)
    .from(offers)
    .where(listingConditions(filters))
    .orderBy(...ORDERS[sort])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** The home page's 'Offres à la une': active featured offers, newest first (partial index). */
export function listFeaturedOffers(limit = 3, database: Database = db()): Promise<OfferCardData[]> {
  return database
    .select(cardColumns)
    .from(offers)
    .where(and(eq(offers.featured, true), eq(offers.isActive, true)))
    .orderBy(desc(offers.createdAt), desc(offers.id))
    .limit(limit);
}

/** Active offers with these slugs, in the order given; unknown and inactive ones are left out. */
export async function findActiveOffersBySlugs(
  slugs: readonly string[],
  database: Database = db(),
): Promise<Offer[]> {
  if (slugs.length === 0) return [];
  const rows = await database
    .select()
    .from(offers)
    .where(and(inArray(offers.slug, [...slugs]), eq(offers.isActive, true)));
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  return slugs.flatMap((slug) => bySlug.get(slug) ?? []);
}

export async function findActiveOfferBySlug(slug: string, database: Database = db()) {
  const [offer] = await database
    .select()
    .from(offers)
    .where(and(eq(offers.slug, slug), eq(offers.isActive, true)))
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
