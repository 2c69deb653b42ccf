// The public side of the catalogue: the listing with its filters, counts and pages, the home
// page's featured offers, an offer by its slug, the reference filters' choices.
import { and, asc, getTableColumns, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { AVAILABLE_NOW } from "~/lib/delivery";
import {
  indexCatalogue,
  listFromIndex,
  type CatalogueIndex,
  type IndexedOffer,
} from "~/lib/catalogue-index";
import { facetCounts, type FacetCounts } from "~/lib/offer-facets";
import {
  DEFAULT_SORT,
  likePattern,
  MINIMUM_FILTERS,
  REFERENCE_FILTERS,
  type MinimumFilterColumn,
  type OfferFilters,
  type OfferSort,
} from "~/lib/offer-filters";
import { memo, type Memo } from "~/lib/memo";
import { catalogueVersion } from "./catalogue-memo.server";
import type { SelectedFields } from "drizzle-orm/pg-core";
import { db, type Database } from "~/platform/db.server";
import { datacenters, offers, type Offer } from "~/platform/schema.server";
import type { OfferField } from "~/lib/offer-fields";

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
  delivery: offers.delivery,
  deliveryDays: offers.deliveryDays,
  datacenter: offers.datacenter,
  datacenterName: datacenters.name,
};

export type OfferCardData = {
  [K in keyof typeof cardColumns]: K extends keyof Offer ? Offer[K] : string | null;
};

/** Offers with their datacenter's name (a left join: an offer may have none). */
export function offersWithDatacenter<T extends SelectedFields>(database: Database, columns: T) {
  return database
    .select(columns)
    .from(offers)
    .leftJoin(datacenters, eq(offers.datacenter, datacenters.code));
}

/** A full offer row with its datacenter's name. */
const detailColumns = { ...getTableColumns(offers), datacenterName: datacenters.name };
export type OfferDetail = Offer & { datacenterName: string | null };

/** Active offers matching the search. */
function searchConditions(filters: OfferFilters): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [eq(offers.isActive, true)];
  if (filters.searchTerm) {
    // Case-insensitive substring of title, reference, cpu or ram: search_text holds the four,
    // lower-cased, with a separator that no search term contains (schema.server.ts).
    const pattern = likePattern(filters.searchTerm);
    conditions.push(sql`${offers.searchText} like lower(${pattern})`);
  }
  return conditions;
}

/** The price and number filters. */
function rangeConditions(filters: OfferFilters): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [];
  if (filters.minPrice !== undefined) conditions.push(gte(offers.price, String(filters.minPrice)));
  if (filters.maxPrice !== undefined) conditions.push(lte(offers.price, String(filters.maxPrice)));
  // NULL >= n is not true: an offer without the number is left out once the filter is set.
  for (const { field, column } of MINIMUM_FILTERS) {
    const at = filters[field];
    if (at !== undefined) conditions.push(gte(offers[column], at));
  }
  return conditions;
}

/** Spec section 7, Listing: active offers only, the filters combined with AND. */
export function listingConditions(filters: OfferFilters): SQL | undefined {
  const conditions = [...searchConditions(filters), ...rangeConditions(filters)];
  if (filters.type) conditions.push(eq(offers.type, filters.type));
  if (filters.commitment !== undefined) conditions.push(eq(offers.engagement, filters.commitment));
  for (const { param, field } of REFERENCE_FILTERS) {
    const code = filters[param];
    if (code) conditions.push(eq(offers[field], code));
  }
  if (filters.availableNow) conditions.push(inArray(offers.delivery, [...AVAILABLE_NOW]));
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

/**
 * The active catalogue as the listing reads it (catalogue-index.ts): each offer's card, facet
 * cell and search text, newest first, with its rank in price order; the price to the euro, RAM and
 * cores for the range filters.
 */
export async function loadCatalogueIndex(
  database: Database = db(),
): Promise<CatalogueIndex<OfferCardData>> {
  const rows = await offersWithDatacenter(database, {
    ...cardColumns,
    ramGb: offers.ramGb,
    cpuCores: offers.cpuCores,
    searchText: offers.searchText,
    priceFloor: sql<number>`floor(${offers.price})::int`,
    priceCeil: sql<number>`ceil(${offers.price})::int`,
    priceRank: sql<number>`(row_number() over (order by ${offers.price}, ${offers.id}))::int`,
  })
    .where(eq(offers.isActive, true))
    .orderBy(...ORDERS.newest);
  // Literal objects of one shape: the listing reads these fields on up to every offer, per search.
  return indexCatalogue(
    rows.map(
      ({ searchText, priceFloor, priceCeil, priceRank, ramGb, cpuCores, ...card }) =>
        ({
          type: card.type,
          engagement: card.engagement,
          delivery: card.delivery,
          datacenter: card.datacenter,
          priceFloor,
          priceCeil,
          ramGb,
          cpuCores,
          priceRank,
          count: 1,
          searchText: searchText ?? "",
          card,
        }) satisfies IndexedOffer<OfferCardData> & {
          priceRank: number;
        } & Record<MinimumFilterColumn, number | null>, // every range filter's field, named here
    ),
  );
}

/** The index of the current database, kept per catalogue version (catalogue-memo.server.ts). */
const currentIndex = memo(() => loadCatalogueIndex(), { max: 1, version: catalogueVersion });

/** Per index, the counts without a search, by filters. */
const keptCounts = new WeakMap<CatalogueIndex<OfferCardData>, Memo<[OfferFilters], FacetCounts>>();

function countsWithoutSearch(index: CatalogueIndex<OfferCardData>, filters: OfferFilters) {
  let counts = keptCounts.get(index);
  if (!counts) {
    counts = memo((kept: OfferFilters) => facetCounts(index.newest, kept), { max: 1000 });
    keptCounts.set(index, counts);
  }
  return counts(filters);
}

/**
 * The search term lower-cased as the database lowers search_text: printable ASCII here, anything
 * else by the database itself (its locale's rules), once per term and catalogue version.
 */
async function searchNeedle(term: string | undefined, database: Database) {
  if (term === undefined) return undefined;
  if (/^[ -~]*$/.test(term)) return term.toLowerCase();
  return database === db() ? currentLowered(term) : lowerInDatabase(term, database);
}

async function lowerInDatabase(term: string, database: Database = db()): Promise<string> {
  const result = await database.execute<{ lowered: string }>(sql`select lower(${term}) as lowered`);
  return result.rows[0].lowered;
}
const currentLowered = memo((term: string) => lowerInDatabase(term), {
  max: 1000,
  version: catalogueVersion,
});

/**
 * One page of the listing in the chosen order (newest first by default), its total and each
 * select choice's count, from the catalogue's index: the current database's is kept per catalogue
 * version (every offer write bumps it, in its transaction), with the counts of every filter state
 * without a search; another database (a transaction, a script's) has its own read.
 */
export async function listActiveOffers(
  filters: OfferFilters,
  page = 1,
  pageSize = LISTING_PAGE_SIZE,
  database: Database = db(),
  sort: OfferSort = DEFAULT_SORT,
): Promise<{ offers: OfferCardData[]; total: number; counts: FacetCounts }> {
  const current = database === db();
  const index = current ? await currentIndex() : await loadCatalogueIndex(database);
  const needle = await searchNeedle(filters.searchTerm, database);
  const kept = current && needle === undefined ? countsWithoutSearch(index, filters) : undefined;
  return listFromIndex(index, filters, { needle, page, pageSize, sort }, kept);
}

/** The query of one listing page (exported for the test that reads its plan). */
export function listingPageQuery(
  filters: OfferFilters,
  page: number,
  pageSize: number,
  database: Database,
  sort: OfferSort,
) {
  return offersWithDatacenter(database, cardColumns)
    .where(listingConditions(filters))
    .orderBy(...ORDERS[sort])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** The same page with every column (the API: the same offers in the same order). */
export function listingPageDetails(
  filters: OfferFilters,
  page: number,
  pageSize: number,
  database: Database,
  sort: OfferSort,
): Promise<OfferDetail[]> {
  return offersWithDatacenter(database, detailColumns)
    .where(listingConditions(filters))
    .orderBy(...ORDERS[sort])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** The home page's 'Offres à la une': active featured offers, newest first (partial index). */
export function listFeaturedOffers(limit = 3, database: Database = db()): Promise<OfferCardData[]> {
  return offersWithDatacenter(database, cardColumns)
    .where(and(eq(offers.featured, true), eq(offers.isActive, true)))
    .orderBy(desc(offers.createdAt), desc(offers.id))
    .limit(limit);
}

/** Active offers with these slugs, in the order given; unknown and inactive ones are left out. */
export async function findActiveOffersBySlugs(
  slugs: readonly string[],
  database: Database = db(),
): Promise<OfferDetail[]> {
  if (slugs.length === 0) return [];
  const rows = await offersWithDatacenter(database, detailColumns).where(
    and(inArray(offers.slug, [...slugs]), eq(offers.isActive, true)),
  );
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  return slugs.flatMap((slug) => bySlug.get(slug) ?? []);
}

/** findActiveOfferBySlug on the current database, kept per catalogue version (offer pages). */
export const currentOfferBySlug = memo((slug: string) => findActiveOfferBySlug(slug), {
  max: 1000,
  version: catalogueVersion,
});

export async function findActiveOfferBySlug(
  slug: string,
  database: Database = db(),
): Promise<OfferDetail | undefined> {
  const [offer] = await offersWithDatacenter(database, detailColumns)
    .where(and(eq(offers.slug, slug), eq(offers.isActive, true)))
    .limit(1);
  return offer;
}

/**
 * The choices of the `reference` fields (offer-fields.ts), by name: the admin form's options and
 * the listing's filters (REFERENCE_FILTERS).
 */
/** offerReferenceOptions on the current database, kept per catalogue version (the listing). */
export const currentReferenceOptions = memo(() => offerReferenceOptions(), {
  max: 1,
  version: catalogueVersion,
});

export async function offerReferenceOptions(
  database: Database = db(),
): Promise<Partial<Record<OfferField, { value: string; label: string }[]>>> {
  const rows = await database
    .select({ value: datacenters.code, label: datacenters.name })
    .from(datacenters)
    .orderBy(asc(datacenters.name));
  return { datacenter: rows };
}
