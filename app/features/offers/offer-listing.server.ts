// The public side of the catalogue: the listing with its filters, counts and pages, the home
// page's featured offers, an offer by its slug, the reference filters' choices.
import {
  and,
  asc,
  count,
  getTableColumns,
  desc,
  eq,
  gte,
  inArray,
  lte,
  sql,
  type SQL,
} from "drizzle-orm";
import { AVAILABLE_NOW } from "~/lib/delivery";
import { facetCounts, type FacetCell, type FacetCounts } from "~/lib/offer-facets";
import {
  DEFAULT_SORT,
  likePattern,
  MINIMUM_FILTERS,
  REFERENCE_FILTERS,
  type MinimumFilterColumn,
  type OfferFilters,
  type OfferSort,
} from "~/lib/offer-filters";
import { byCatalogue } from "./catalogue-memo.server";
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

/** Active offers matching the search: what the counts' cells are grouped over (offer-facets.ts). */
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
 * The cells of the listing's counts (offer-facets.ts), in one query. Without a search: the whole
 * active catalogue grouped by the selects' fields, the price to the euro, RAM and cores (the
 * ranges are applied to the cells). With one: its matches within the ranges, by the selects'
 * fields. A real promise (drizzle's query runs again at each `then`): it is kept and awaited again.
 */
export async function listingFacetCells(
  filters: OfferFilters,
  database: Database = db(),
): Promise<FacetCell[]> {
  const fields = Object.fromEntries(
    REFERENCE_FILTERS.map(({ field }) => [field, offers[field]]),
  ) as Record<(typeof REFERENCE_FILTERS)[number]["field"], (typeof offers)["datacenter"]>;
  const minimumColumns = Object.fromEntries(
    MINIMUM_FILTERS.map(({ column }) => [column, offers[column]]),
  ) as Record<MinimumFilterColumn, (typeof offers)["ramGb"]>;
  const selects = {
    type: offers.type,
    engagement: offers.engagement,
    delivery: offers.delivery,
    ...fields,
  };
  const search = Boolean(filters.searchTerm);
  const groups = search
    ? selects
    : {
        ...selects,
        priceFloor: sql<number>`floor(${offers.price})::int`,
        priceCeil: sql<number>`ceil(${offers.price})::int`,
        ...minimumColumns,
      };
  const where = [...searchConditions(filters), ...(search ? rangeConditions(filters) : [])];
  return database
    .select({ ...groups, count: count() })
    .from(offers)
    .where(and(...where))
    .groupBy(...Object.values(groups));
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

/** The cells without a search (the whole active catalogue), kept per catalogue version. */
const currentCatalogueCells = byCatalogue(() => listingFacetCells({}));

/**
 * The counts without a search, kept per catalogue version and filters (the key: the parsed filters
 * as JSON). The cells are about one per offer, so counting is a pass over the whole catalogue (a
 * few ms at 10,000 offers), the same for every page and order of a listing.
 */
const currentCatalogueCounts = byCatalogue(async (key) =>
  facetCounts(await currentCatalogueCells(), JSON.parse(key) as OfferFilters),
);

/**
 * The counts of `filters`. Without a search they come from the whole active catalogue's cells, the
 * same for any other filter: computed once per catalogue version (every offer write bumps it, in
 * its transaction; catalogue-memo.server.ts), on any instance. Another database than the server's
 * (a transaction, a script's) reads its own. A search groups its matches (at most a few hundred
 * rows: the trigram index).
 */
async function listingCounts(filters: OfferFilters, database: Database): Promise<FacetCounts> {
  if (!filters.searchTerm && database === db())
    return currentCatalogueCounts(JSON.stringify(filters));
  const cells = await listingFacetCells(filters.searchTerm ? filters : {}, database);
  return facetCounts(cells, filters);
}

/**
 * One page of the listing in the chosen order (newest first by default), with the total count;
 * with `counts`, also each select choice's count (the total then comes from the same query).
 */
export async function listActiveOffers(
  filters: OfferFilters,
  page = 1,
  pageSize = LISTING_PAGE_SIZE,
  database: Database = db(),
  sort: OfferSort = DEFAULT_SORT,
  options: { counts?: boolean } = {},
): Promise<{ offers: OfferCardData[]; total: number; counts?: FacetCounts }> {
  let total: number;
  let counts: FacetCounts | undefined;
  if (options.counts) {
    counts = await listingCounts(filters, database);
    total = counts.total;
  } else {
    const where = listingConditions(filters);
    [{ total }] = await database.select({ total: count() }).from(offers).where(where);
  }
  if (total === 0) return { offers: [], total, counts };
  const rows = await listingPageQuery(filters, page, pageSize, database, sort);
  return { offers: rows, total, counts };
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
export const currentOfferBySlug = byCatalogue((slug) => findActiveOfferBySlug(slug));

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
export const currentReferenceOptions = byCatalogue(() => offerReferenceOptions());

export async function offerReferenceOptions(
  database: Database = db(),
): Promise<Partial<Record<OfferField, { value: string; label: string }[]>>> {
  const rows = await database
    .select({ value: datacenters.code, label: datacenters.name })
    .from(datacenters)
    .orderBy(asc(datacenters.name));
  return { datacenter: rows };
}
