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
import {
  buildTextIndex,
  searchIndex,
  suggestQuery,
  synonymGroups,
  type SearchDocument,
  type Synonyms,
  type TextIndex,
} from "./text-search";

// The one listing engine (issue 43): the active catalogue held in memory, once per catalogue
// version, answers the listing page, /api/offers and the contact form's offer search alike. SQL is
// the source it is built from (offer-listing.server.ts's loadCatalogueIndex): the orders are the
// database's (created_at, price and title ranks), the search text its lower-cased search_text,
// the cells the counts' (offer-facets.ts), one per offer; the search is text-search.ts's, over
// each offer's fields and the synonyms table. No zod, no database: tested beside it.

/**
 * One active offer: its facet cell (count 1, every range field), its place newest first (`doc`,
 * its number in the text index), its searchable fields with their weights, and its card.
 */
export type IndexedOffer<Card> = FacetCell & {
  count: 1;
  doc: number;
  search: SearchDocument;
  card: Card;
};

/**
 * The active offers in each order of the listing (OfferSort) and by title, and their words with
 * the synonyms (the search of the listing, the API and the contact form).
 */
export type CatalogueIndex<Card> = Record<OfferSort | "title", readonly IndexedOffer<Card>[]> & {
  text: TextIndex;
  synonyms: Synonyms;
};

/**
 * The index from the offers newest first (created_at desc, id desc; `doc` their place in it) and
 * each one's rank in price order (price, id) and title order (title, id), all as the database
 * sorts them, with the synonyms table's groups. `price_desc` is (price desc, id desc): the exact
 * reverse of (price, id).
 */
export function indexCatalogue<Card>(
  newestFirst: readonly (IndexedOffer<Card> & { priceRank: number; titleRank: number })[],
  synonyms: readonly (readonly string[])[] = [],
): CatalogueIndex<Card> {
  const priceAsc = [...newestFirst].sort((a, b) => a.priceRank - b.priceRank);
  const title = [...newestFirst].sort((a, b) => a.titleRank - b.titleRank);
  return {
    newest: newestFirst,
    price_asc: priceAsc,
    price_desc: [...priceAsc].reverse(),
    title,
    text: buildTextIndex(newestFirst.map((offer) => offer.search)),
    synonyms: synonymGroups(synonyms),
  };
}

/** Each matching offer's score (doc → score); a query without a word matches nothing. */
function scores<Card>(index: CatalogueIndex<Card>, query: string): Map<number, number> {
  const found = searchIndex(index.text, query, index.synonyms) ?? [];
  return new Map(found.map(({ doc, score }) => [doc, score]));
}

/** `offers` holding a match, the best first; equal scores keep their order in `offers`. */
function byRelevance<Card>(
  offers: readonly IndexedOffer<Card>[],
  found: Map<number, number>,
): IndexedOffer<Card>[] {
  return offers
    .filter((offer) => found.has(offer.doc))
    .sort((a, b) => found.get(b.doc)! - found.get(a.doc)!);
}

/**
 * The contact form's offer search (issue 11, searched as the listing since issue 42): the
 * matching active offers, the most relevant first and by title among equals, at most `limit`;
 * `more` when there are others.
 */
export function searchTitles<Card>(
  index: CatalogueIndex<Card>,
  query: string,
  limit: number,
): { offers: Card[]; more: boolean } {
  const found = byRelevance(index.title, scores(index, query));
  return { offers: found.slice(0, limit).map((o) => o.card), more: found.length > limit };
}

/** `Vouliez-vous dire …`: a query close to `query` that finds offers, when it finds none. */
export function suggestSearch<Card>(index: CatalogueIndex<Card>, query: string) {
  return suggestQuery(index.text, query, index.synonyms);
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
 * One page of the listing, its total and every choice's count. `query`: the search, whose matches
 * come the most relevant first in the default order (newest among equals) and in the chosen
 * order otherwise; `keptCounts`: the counts when the caller keeps them (without a search they
 * depend on the filters alone).
 */
export function listFromIndex<Card>(
  index: CatalogueIndex<Card>,
  filters: OfferFilters,
  options: { query?: string; page: number; pageSize: number; sort: OfferSort },
  keptCounts?: FacetCounts,
): { offers: Card[]; total: number; counts: FacetCounts } {
  const { query, page, pageSize, sort } = options;
  const ordered = index[sort];
  const found = query === undefined ? undefined : scores(index, query);
  const pool =
    found === undefined
      ? ordered
      : sort === "newest"
        ? byRelevance(ordered, found)
        : ordered.filter((offer) => found.has(offer.doc));
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
