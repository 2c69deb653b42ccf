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

// The one listing engine (issue 43): the active catalogue held in memory, once per catalogue
// version, answers the listing page, /api/offers and the contact form's offer search alike. SQL is
// the source it is built from (offer-listing.server.ts's loadCatalogueIndex): the orders are the
// database's (created_at, price and title ranks), the search text its lower-cased search_text,
// the cells the counts' (offer-facets.ts), one per offer. No zod, no database: tested beside it.

/**
 * One active offer: its facet cell (count 1, every range field), search text (search_text:
 * title, reference, cpu and ram lower-cased, separated by chr(31)) and card.
 */
export type IndexedOffer<Card> = FacetCell & { count: 1; searchText: string; card: Card };

/** The active offers in each order of the listing (OfferSort), and by title (the offer search). */
export type CatalogueIndex<Card> = Record<OfferSort | "title", readonly IndexedOffer<Card>[]>;

/** search_text's separator: no search term contains it (control characters are refused). */
const FIELD_SEPARATOR = "\u001f";

/**
 * The index from the offers newest first (created_at desc, id desc) and each one's rank in price
 * order (price, id) and title order (title, id), all as the database sorts them. `price_desc` is
 * (price desc, id desc): the exact reverse of (price, id).
 */
export function indexCatalogue<Card>(
  newestFirst: readonly (IndexedOffer<Card> & { priceRank: number; titleRank: number })[],
): CatalogueIndex<Card> {
  const priceAsc = [...newestFirst].sort((a, b) => a.priceRank - b.priceRank);
  const title = [...newestFirst].sort((a, b) => a.titleRank - b.titleRank);
  return { newest: newestFirst, price_asc: priceAsc, price_desc: [...priceAsc].reverse(), title };
}

/**
 * The contact form's offer search (issue 11): active offers whose title or reference contains
 * `needle` (lower-cased as the database lowers), by title, at most `limit`; `more` when there are
 * others.
 */
export function searchTitles<Card>(
  index: CatalogueIndex<Card>,
  needle: string,
  limit: number,
): { offers: Card[]; more: boolean } {
  const offers: Card[] = [];
  for (const offer of index.title) {
    const text = offer.searchText;
    const first = text.indexOf(FIELD_SEPARATOR);
    const second = first < 0 ? -1 : text.indexOf(FIELD_SEPARATOR, first + 1);
    const titleAndReference = second < 0 ? text : text.slice(0, second);
    if (!titleAndReference.includes(needle)) continue;
    if (offers.length === limit) return { offers, more: true };
    offers.push(offer.card);
  }
  return { offers, more: false };
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
