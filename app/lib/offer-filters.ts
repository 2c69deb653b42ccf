import { OFFER_TYPES, type OfferType } from "./domain";
import { listSearch } from "./list-query";
import { cleanSearchTerm } from "./list-query";

// Shared by the listing's loader and its script (app/client/listing.ts), which builds the same
// canonical address as the server. No zod here: parseOfferFilters written with it adds about 90 KB
// gzip to that script (0.7 KB without; esbuild, minified). The query is read leniently, so a plain
// reader is enough: a malformed value clears that filter instead of failing the page.

/**
 * Listing filter state (spec section 3, plus the numeric filters of issue 13), as carried in the
 * URL: ?q=&type=&min=&max=&ram_min=&cores_min=&engagement=&location=&available=1&sort=&page=.
 * Prices are HT.
 */
export type OfferFilters = {
  searchTerm?: string;
  type?: OfferType;
  minPrice?: number;
  maxPrice?: number;
  commitment?: boolean;
  /** Deliverable now: in stock (issue 21). */
  availableNow?: boolean;
} & Partial<Record<MinimumFilterField, number>> &
  Partial<Record<ReferenceFilterParam, string>>;

/**
 * Filters "at least this much" on a number of the offer (`column`, an offer-fields.ts number):
 * offers without the number are left out once the filter is set, 0 means no filter. A new one is a
 * line here; the address, the form, the facet counts, the SQL and the API's parameter follow.
 */
export const MAX_RAM_FILTER = 100_000;
export const MAX_CORES_FILTER = 10_000;
export const MINIMUM_FILTERS = [
  {
    param: "ram_min",
    field: "ramMin",
    column: "ramGb",
    max: MAX_RAM_FILTER,
    label: "RAM min (Go)",
    placeholder: "64",
    description: "RAM minimum en Go (0 : pas de filtre).",
  },
  {
    param: "cores_min",
    field: "coresMin",
    column: "cpuCores",
    max: MAX_CORES_FILTER,
    label: "Cœurs min",
    placeholder: "8",
    description: "Cœurs minimum (0 : pas de filtre).",
  },
] as const;
export type MinimumFilter = (typeof MINIMUM_FILTERS)[number];
export type MinimumFilterField = MinimumFilter["field"];
export type MinimumFilterColumn = MinimumFilter["column"];

/**
 * Filters on an offer field whose values the administrator keeps (a `reference` of offer-fields.ts,
 * such as the datacenter): a code in the URL, a select of the loader's choices. A new one is a line
 * here; the form, the address and the query follow.
 */
export const REFERENCE_FILTERS = [
  { param: "location", field: "datacenter", label: "Datacenter" },
] as const;
export type ReferenceFilterParam = (typeof REFERENCE_FILTERS)[number]["param"];
/** The loader's choices for those filters, by field: code and name. */
export type ReferenceChoices = Partial<
  Record<(typeof REFERENCE_FILTERS)[number]["field"], { value: string; label: string }[]>
>;

/** The listing's orders; `newest` is the default and stays out of the URL. */
export const OFFER_SORTS = ["newest", "price_asc", "price_desc"] as const;
export type OfferSort = (typeof OFFER_SORTS)[number];
export const DEFAULT_SORT: OfferSort = "newest";

export const OFFER_SORT_LABELS: Record<OfferSort, string> = {
  newest: "Plus récentes",
  price_asc: "Prix croissant",
  price_desc: "Prix décroissant",
};

export const MAX_SEARCH_LENGTH = 100;
export const MAX_PRICE_FILTER = 1_000_000;
export const MAX_PAGE = 10_000;

export const LISTING_PATH = "/offers";

/** The query parameters the listing reads; any other is ignored (and dropped from its address). */
export const LISTING_PARAMS = [
  "q",
  "type",
  "min",
  "max",
  ...MINIMUM_FILTERS.map((filter) => filter.param),
  "engagement",
  ...REFERENCE_FILTERS.map((filter) => filter.param),
  "available",
  "sort",
  "page",
] as const;

/** A kept value's code, such as a datacenter's: a slug (datacenters.server.ts makes it from the name). */
export const REFERENCE_CODE = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** A whole number as typed ('499.99' and '12,7' read as 499 and 12), capped; else undefined. */
function intParam(value: string | null, max: number): number | undefined {
  const text = value?.trim();
  if (!text || !/^\d+(?:[.,]\d*)?$/.test(text)) return undefined;
  return Math.min(Number.parseInt(text, 10), max);
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return values.find((v) => v === value);
}

/** The listing's state from its query string (or its filter form's fields). */
export function parseOfferFilters(params: URLSearchParams): {
  filters: OfferFilters;
  page: number;
  sort: OfferSort;
} {
  const filters: OfferFilters = {};
  const searchTerm = cleanSearchTerm(params.get("q") ?? "", MAX_SEARCH_LENGTH);
  if (searchTerm) filters.searchTerm = searchTerm;
  const type = oneOf(OFFER_TYPES, params.get("type"));
  if (type) filters.type = type;
  const minPrice = intParam(params.get("min"), MAX_PRICE_FILTER);
  if (minPrice !== undefined) filters.minPrice = minPrice;
  const maxPrice = intParam(params.get("max"), MAX_PRICE_FILTER);
  if (maxPrice !== undefined) filters.maxPrice = maxPrice;
  // 0 means "any": the same results as no filter, so one address for both.
  for (const { param, field, max } of MINIMUM_FILTERS) {
    const at = intParam(params.get(param), max);
    if (at) filters[field] = at;
  }
  const engagement = oneOf(["yes", "no"], params.get("engagement"));
  if (engagement) filters.commitment = engagement === "yes";
  for (const { param } of REFERENCE_FILTERS) {
    const code = params.get(param)?.trim().toLowerCase();
    if (code && REFERENCE_CODE.test(code)) filters[param] = code;
  }
  if (params.get("available") === "1") filters.availableNow = true;
  const page = Math.max(1, intParam(params.get("page"), MAX_PAGE) ?? 1);
  return { filters, page, sort: oneOf(OFFER_SORTS, params.get("sort")) ?? DEFAULT_SORT };
}

export function hasActiveFilters(filters: OfferFilters): boolean {
  return Object.values(filters).some((v) => v !== undefined);
}

/** The canonical query string for a filter state, order and page (all defaults give ''). */
export function offerFiltersToSearch(
  filters: OfferFilters,
  page = 1,
  sort: OfferSort = DEFAULT_SORT,
): string {
  return listSearch([
    ["q", filters.searchTerm],
    ["type", filters.type],
    ["min", filters.minPrice],
    ["max", filters.maxPrice],
    ...MINIMUM_FILTERS.map(({ param, field }): [string, number | undefined] => [
      param,
      filters[field],
    ]),
    [
      "engagement",
      filters.commitment === undefined ? undefined : filters.commitment ? "yes" : "no",
    ],
    ...REFERENCE_FILTERS.map(({ param }): [string, string | undefined] => [param, filters[param]]),
    ["available", filters.availableNow && "1"],
    ["sort", sort !== DEFAULT_SORT && sort],
    ["page", page],
  ]);
}

/** The listing's address for a filter state, order and page: '/offers?type=loa&page=2'. */
export function offerListingPath(filters: OfferFilters, page = 1, sort: OfferSort = DEFAULT_SORT) {
  return `${LISTING_PATH}${offerFiltersToSearch(filters, page, sort)}`;
}

/** Where the filter form leads as the visitor types: its fields read as the query, page 1. */
export function filterFormPath(fields: URLSearchParams): string {
  const { filters, sort } = parseOfferFilters(fields);
  return offerListingPath(filters, 1, sort);
}

/** Escapes LIKE wildcards so that user text matches literally (backslash is the default escape). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
