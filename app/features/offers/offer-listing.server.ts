// The public side of the catalogue: the listing with its filters, counts and pages, the home
// page's featured offers, an offer by its slug, the reference filters' choices.
import { and, asc, getTableColumns, desc, eq, inArray, sql } from "drizzle-orm";
import {
  indexCatalogue,
  listFromIndex,
  searchTitles,
  suggestSearch,
  type CatalogueIndex,
  type IndexedOffer,
} from "~/lib/catalogue-index";
import { facetCounts, type FacetCounts } from "~/lib/offer-facets";
import {
  DEFAULT_SORT,
  MINIMUM_FILTERS,
  type MinimumFilterColumn,
  type OfferFilters,
  type OfferSort,
} from "~/lib/offer-filters";
import { memo, type Memo } from "~/lib/memo";
import { OFFER_TYPE_LABELS } from "~/lib/domain";
import type { SearchDocument } from "~/lib/text-search";
import { catalogueVersion } from "./catalogue-memo.server";
import { listSynonymGroups } from "./search-synonyms.server";
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

/** The numbers the "at least" filters read (MINIMUM_FILTERS), as columns. */
const minimumColumns = Object.fromEntries(
  MINIMUM_FILTERS.map(({ column }) => [column, offers[column]]),
) as { [C in MinimumFilterColumn]: (typeof offers)[C] };

/** The newest first, as the (is_active, created_at desc) index reads them; the id breaks ties. */
const NEWEST_FIRST = [desc(offers.createdAt), desc(offers.id)];

/**
 * The active catalogue as the listing, the API and the offer search read it (catalogue-index.ts):
 * each offer's card, facet cell and searchable fields, newest first, with its rank in price and in
 * title order; the price to the euro and the numbers of MINIMUM_FILTERS for the range filters; the
 * search's synonyms.
 */
export async function loadCatalogueIndex(
  database: Database = db(),
): Promise<CatalogueIndex<OfferCardData>> {
  const synonyms = await listSynonymGroups(database);
  const rows = await offersWithDatacenter(database, {
    ...cardColumns,
    minimums: minimumColumns,
    network: offers.network,
    description: offers.description,
    priceFloor: sql<number>`floor(${offers.price})::int`,
    priceCeil: sql<number>`ceil(${offers.price})::int`,
    priceRank: sql<number>`(row_number() over (order by ${offers.price}, ${offers.id}))::int`,
    titleRank: sql<number>`(row_number() over (order by ${offers.title}, ${offers.id}))::int`,
  })
    .where(eq(offers.isActive, true))
    .orderBy(...NEWEST_FIRST);
  // Literal objects of one shape: the listing reads these fields on up to every offer, per search.
  return indexCatalogue(
    rows.map(
      (
        { network, description, priceFloor, priceCeil, priceRank, titleRank, minimums, ...card },
        doc,
      ) =>
        ({
          type: card.type,
          engagement: card.engagement,
          delivery: card.delivery,
          datacenter: card.datacenter,
          priceFloor,
          priceCeil,
          ...minimums,
          priceRank,
          titleRank,
          count: 1,
          doc,
          search: searchFields(card, network, description),
          card,
        }) satisfies IndexedOffer<OfferCardData> & {
          priceRank: number;
          titleRank: number;
        } & Record<MinimumFilterColumn, number | null>, // every range filter's number
    ),
    synonyms.map((group) => group.phrases),
  );
}

/**
 * What the search reads of an offer (issue 42), by weight: its title and reference first, then
 * its specifications and place, then its description.
 */
function searchFields(
  card: OfferCardData,
  network: string | null,
  description: string | null,
): SearchDocument {
  const specs = [card.cpu, card.ram, card.storage, network, card.datacenterName, card.contractType];
  return [
    { text: `${card.title} ${card.reference}`, weight: 3 },
    { text: specs.filter(Boolean).join(" "), weight: 2 },
    { text: `${OFFER_TYPE_LABELS[card.type]} ${description ?? ""}`, weight: 1 },
  ];
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
): Promise<{
  offers: OfferCardData[];
  total: number;
  counts: FacetCounts;
  suggestion: string | undefined;
}> {
  const current = database === db();
  const index = current ? await currentIndex() : await loadCatalogueIndex(database);
  const query = filters.searchTerm;
  const kept = current && query === undefined ? countsWithoutSearch(index, filters) : undefined;
  const listed = listFromIndex(index, filters, { query, page, pageSize, sort }, kept);
  // `Vouliez-vous dire …` (issue 42): only when the search itself found nothing.
  const suggestion =
    query !== undefined && listed.counts.total === 0 ? suggestSearch(index, query) : undefined;
  return { ...listed, suggestion };
}

/**
 * The contact form's offer search (issue 11): active offers whose title or reference contains
 * `term` (any case), by title, at most `limit`; `more` when there are others. From the same index
 * as the listing.
 */
export async function searchOfferTitles(
  term: string,
  limit: number,
  database: Database = db(),
): Promise<{ offers: OfferCardData[]; more: boolean }> {
  const index = database === db() ? await currentIndex() : await loadCatalogueIndex(database);
  return searchTitles(index, term, limit);
}

/**
 * Active offers with these ids, every column, in the order given (the API's page: the index
 * chose them); one that is no longer active is left out.
 */
export async function findActiveOffersByIds(
  ids: readonly number[],
  database: Database = db(),
): Promise<OfferDetail[]> {
  if (ids.length === 0) return [];
  const rows = await offersWithDatacenter(database, detailColumns).where(
    and(inArray(offers.id, [...ids]), eq(offers.isActive, true)),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
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
