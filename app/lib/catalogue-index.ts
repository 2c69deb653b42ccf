import {
  CELL_VALUE,
  FACETS,
  facetCounts,
  inRanges,
  selectedChoice,
  type FacetCell,
  type FacetCounts,
} from "./offer-facets";
import { MINIMUM_FILTERS, type OfferFilters, type OfferSort } from "./offer-filters";

// The public listing answered from the active catalogue held in memory, once per catalogue
// version (issue 31: an uncached search ran two statements, more than half of its time on the
// embedded database). The rules are the SQL's (offer-listing.server.ts's listingConditions, which
// the API still runs): the same cells as the counts (offer-facets.ts), one per offer, and the
// search as a substring of search_text. A test holds the two to the same answers on both engines.
// No zod, no database: tested beside it.

/** One active offer: its facet cell (count 1, every range field), search text and card. */
export type IndexedOffer<Card> = FacetCell & { count: 1; searchText: string; card: Card };

/** The active offers in each order of the listing (OfferSort). */
export type CatalogueIndex<Card> = Record<OfferSort, readonly IndexedOffer<Card>[]>;

/**
 * The index from the offers newest first (created_at desc, id desc) and each one's rank in price
 * order (price, id), both as the database sorts them. `price_desc` is (price desc, id desc): the
 * exact reverse of (price, id).
 */
export function indexCatalogue<Card>(
  newestFirst: readonly (IndexedOffer<Card> & { priceRank: number })[],
): CatalogueIndex<Card> {
  const priceAsc = [...newestFirst].sort((a, b) => a.priceRank - b.priceRank);
  return { newest: newestFirst, price_asc: priceAsc, price_desc: [...priceAsc].reverse() };
}

/**
 * Whether an offer's cell passes every filter but the search (the SQL's AND of them): a test made
 * once per listing, then run on up to every offer of the catalogue.
 */
export function filterMatcher(filters: OfferFilters): (cell: FacetCell) => boolean {
  const chosen = FACETS.filter((facet) => selectedChoice(filters, facet) !== undefined);
  const getters = chosen.map((facet) => CELL_VALUE[facet]);
  const values = chosen.map((facet) => selectedChoice(filters, facet));
  const ranged =
    filters.minPrice !== undefined ||
    filters.maxPrice !== undefined ||
    MINIMUM_FILTERS.some(({ field }) => filters[field] !== undefined);
  return (cell) => {
    if (ranged && !inRanges(cell, filters)) return false;
    for (let i = 0; i < getters.length; i++) if (getters[i](cell) !== values[i]) return false;
    return true;
  };
}

/**
 * One page of the listing, its total and every choice's count. `needle`: the search term
 * lower-cased as the database lowers it (search_text holds the lower-cased fields); `keptCounts`:
 * the counts when the caller keeps them (without a search they depend on the filters alone).
 */
export function listFromIndex<Card>(
  index: CatalogueIndex<Card>,
  filters: OfferFilters,
  options: { needle?: string; page: number; pageSize: number; sort: OfferSort },
  keptCounts?: FacetCounts,
): { offers: Card[]; total: number; counts: FacetCounts } {
  const { needle, page, pageSize, sort } = options;
  const ordered = index[sort];
  const pool =
    needle === undefined ? ordered : ordered.filter((offer) => offer.searchText.includes(needle));
  const counts = keptCounts ?? facetCounts(pool, filters);
  const matches = filterMatcher(filters);
  const offers: Card[] = [];
  let skip = (page - 1) * pageSize;
  for (const offer of pool) {
    if (offers.length === pageSize) break;
    if (!matches(offer)) continue;
    if (skip > 0) skip--;
    else offers.push(offer.card);
  }
  return { offers, total: counts.total, counts };
}
