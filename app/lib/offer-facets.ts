import { AVAILABLE_NOW } from "./delivery";
import type { OfferType } from "./domain";
import type { DeliveryState } from "./offer-fields";
import { REFERENCE_FILTERS, type OfferFilters } from "./offer-filters";

// Counts beside the listing's selects (issue 30): each choice shows how many offers it gives with
// the other filters as they are ('Paris (4)'). The database answers one grouped query, the cells
// below, over the offers that pass the filters which are not selects (search, prices, RAM, cores);
// every count, and the listing's total, is a sum of cells. No zod, no database: tested beside it.

/** One group of offers that share the select filters' values, and how many they are. */
export type FacetCell = {
  type: OfferType;
  engagement: boolean;
  delivery: DeliveryState;
  count: number;
} & Record<(typeof REFERENCE_FILTERS)[number]["field"], string | null>;

/** The listing's selects (and the availability checkbox), by query parameter. */
export const FACETS = [
  "type",
  "engagement",
  ...REFERENCE_FILTERS.map((f) => f.param),
  "available",
] as const;
export type Facet = (typeof FACETS)[number];

/** A facet's choices as the URL writes them ('loa', 'yes', 'paris', '1'); undefined: any. */
const CELL_VALUE: Record<Facet, (cell: FacetCell) => string | undefined> = {
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

/** Whether a cell passes every select filter but `except`. */
function passes(cell: FacetCell, filters: OfferFilters, except?: Facet): boolean {
  return FACETS.every((facet) => {
    if (facet === except) return true;
    const chosen = selectedChoice(filters, facet);
    return chosen === undefined || CELL_VALUE[facet](cell) === chosen;
  });
}

/** The listing's total and every choice's count, from the grouped cells. */
export function facetCounts(cells: readonly FacetCell[], filters: OfferFilters): FacetCounts {
  const facets = Object.fromEntries(
    FACETS.map((facet) => [facet, { all: 0, by: {} as Record<string, number> }]),
  ) as FacetCounts["facets"];
  let total = 0;
  for (const cell of cells) {
    if (passes(cell, filters)) total += cell.count;
    for (const facet of FACETS) {
      if (!passes(cell, filters, facet)) continue;
      const counts = facets[facet];
      counts.all += cell.count;
      const value = CELL_VALUE[facet](cell);
      if (value !== undefined) counts.by[value] = (counts.by[value] ?? 0) + cell.count;
    }
  }
  return { total, facets };
}

/** A choice's label with its count: 'Paris (4)'; the label alone without counts. */
export function choiceLabel(label: string, count: number | undefined): string {
  return count === undefined ? label : `${label} (${count})`;
}
