import { AVAILABLE_NOW } from "./offer-fields";
import type { OfferType } from "./domain";
import type { DeliveryState } from "./offer-fields";
import {
  MINIMUM_FILTERS,
  REFERENCE_FILTERS,
  type MinimumFilterColumn,
  type OfferFilters,
} from "./offer-filters";

// Counts beside the listing's selects (issue 30): each choice shows how many offers it gives with
// the other filters as they are ('Paris (4)'). The cells below are the catalogue's index (one per
// active offer, kept per catalogue version: catalogue-index.ts, decision 036), or with a search its
// matches; the price and number filters are applied here. Every count, the listing's total too,
// is a sum of cells.
// No zod, no database: tested beside it.

/** One group of offers that share the filtered fields' values, and how many they are. */
export type FacetCell = {
  type: OfferType;
  engagement: boolean;
  delivery: DeliveryState;
  count: number;
  /**
   * The monthly price HT rounded down and up to the euro (the price filters are whole euros), RAM
   * and cores; absent when the database applied those filters already (a search's cells).
   */
  priceFloor?: number;
  priceCeil?: number;
} & Partial<Record<MinimumFilterColumn, number | null>> &
  Record<(typeof REFERENCE_FILTERS)[number]["field"], string | null>;

/** The price and number filters, as the listing's SQL reads them (offers.server.ts). */
export function inRanges(cell: FacetCell, filters: OfferFilters): boolean {
  if (cell.priceFloor === undefined || cell.priceCeil === undefined) return true;
  const { minPrice, maxPrice } = filters;
  // price >= min <=> floor(price) >= min, price <= max <=> ceil(price) <= max, for whole euros.
  if (minPrice !== undefined && cell.priceFloor < minPrice) return false;
  if (maxPrice !== undefined && cell.priceCeil > maxPrice) return false;
  // Without the number, an offer is left out once its filter is set.
  for (const { field, column } of MINIMUM_FILTERS) {
    const at = filters[field];
    const value = cell[column];
    if (at !== undefined && (value == null || value < at)) return false;
  }
  return true;
}

/** The listing's selects (and the availability checkbox), by query parameter. */
export const FACETS = [
  "type",
  "engagement",
  ...REFERENCE_FILTERS.map((f) => f.param),
  "available",
] as const;
export type Facet = (typeof FACETS)[number];

/** A facet's choices as the URL writes them ('loa', 'yes', 'paris', '1'); undefined: any. */
export const CELL_VALUE: Record<Facet, (cell: FacetCell) => string | undefined> = {
  type: (cell) => cell.type,
  engagement: (cell) => (cell.engagement ? "yes" : "no"),
  ...(Object.fromEntries(
    REFERENCE_FILTERS.map(({ param, field }) => [
      param,
      (cell: FacetCell) => cell[field] ?? undefined,
    ]),
  ) as Record<
    (typeof REFERENCE_FILTERS)[number]["param"],
    (cell: FacetCell) => string | undefined
  >),
  available: (cell) => (AVAILABLE_NOW.includes(cell.delivery) ? "1" : undefined),
};

/** The choice the filters hold for a facet, as the URL writes it; undefined: any. */
export function selectedChoice(filters: OfferFilters, facet: Facet): string | undefined {
  switch (facet) {
    case "type":
      return filters.type;
    case "engagement":
      return filters.commitment === undefined ? undefined : filters.commitment ? "yes" : "no";
    case "available":
      return filters.availableNow ? "1" : undefined;
    default:
      return filters[facet];
  }
}

/** Per facet: `all`, the offers with that facet left at 'Tous'; `by`, per choice. */
export type FacetCounts = {
  total: number;
  facets: Record<Facet, { all: number; by: Record<string, number> }>;
};

/**
 * The listing's total and every choice's count, from the grouped cells. A cell that passes every
 * select counts for the total and for every facet; one that fails a single select counts for that
 * facet only (its count with that select left at any value); one that fails more, for nothing.
 */
export function facetCounts(cells: readonly FacetCell[], filters: OfferFilters): FacetCounts {
  // Without a search the cells are about one per offer: no allocation per cell.
  const counts = FACETS.map(() => ({ all: 0, by: {} as Record<string, number> }));
  const getters = FACETS.map((facet) => CELL_VALUE[facet]);
  const chosen = FACETS.map((facet) => selectedChoice(filters, facet));
  const values: (string | undefined)[] = new Array<string | undefined>(FACETS.length);
  let total = 0;
  for (const cell of cells) {
    if (!inRanges(cell, filters)) continue;
    let failed = -1;
    let failures = 0;
    for (let i = 0; i < getters.length; i++) {
      values[i] = getters[i](cell);
      if (chosen[i] !== undefined && values[i] !== chosen[i])
        [failed, failures] = [i, failures + 1];
    }
    if (failures > 1) continue;
    if (failures === 0) total += cell.count;
    for (let i = 0; i < counts.length; i++) {
      if (failures === 1 && failed !== i) continue;
      counts[i].all += cell.count;
      const value = values[i];
      if (value !== undefined) counts[i].by[value] = (counts[i].by[value] ?? 0) + cell.count;
    }
  }
  const facets = Object.fromEntries(FACETS.map((facet, i) => [facet, counts[i]]));
  return { total, facets: facets as FacetCounts["facets"] };
}

/** A choice's label with its count: 'Paris (4)'; the label alone without counts. */
export function choiceLabel(label: string, count: number | undefined): string {
  return count === undefined ? label : `${label} (${count})`;
}
