import type { OfferType } from "./domain";

/**
 * Listing filter state (spec section 3, plus the numeric filters of issue 13), as carried in the
 * URL: ?q=&type=&min=&max=&ram_min=&cores_min=&engagement=&sort=&page=. Prices are HT.
 */
export type OfferFilters = {
  searchTerm?: string;
  type?: OfferType;
  minPrice?: number;
  maxPrice?: number;
  /** Offers with at least this much RAM (Go); offers without the number are left out. */
  ramMin?: number;
  /** Offers with at least this many CPU cores; offers without the number are left out. */
  coresMin?: number;
  commitment?: boolean;
};

/** The listing's orders; `newest` is the default and stays out of the URL. */
export const OFFER_SORTS = ["newest", "price_asc", "price_desc"] as const;
export type OfferSort = (typeof OFFER_SORTS)[number];
export const DEFAULT_SORT: OfferSort = "newest";

export const OFFER_SORT_LABELS: Record<OfferSort, string> = {
  newest: "Plus récentes",
  price_asc: "Prix croissant",
  price_desc: "Prix décroissant",
};

export function hasActiveFilters(filters: OfferFilters): boolean {
  return Object.values(filters).some((v) => v !== undefined);
}

/** The canonical query string for a filter state, order and page (all defaults give ''). */
export function offerFiltersToSearch(
  filters: OfferFilters,
  page = 1,
  sort: OfferSort = DEFAULT_SORT,
): string {
  const params = new URLSearchParams();
  if (filters.searchTerm) params.set("q", filters.searchTerm);
  if (filters.type) params.set("type", filters.type);
  if (filters.minPrice !== undefined) params.set("min", String(filters.minPrice));
  if (filters.maxPrice !== undefined) params.set("max", String(filters.maxPrice));
  if (filters.ramMin !== undefined) params.set("ram_min", String(filters.ramMin));
  if (filters.coresMin !== undefined) params.set("cores_min", String(filters.coresMin));
  if (filters.commitment !== undefined) params.set("engagement", filters.commitment ? "yes" : "no");
  if (sort !== DEFAULT_SORT) params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** Escapes LIKE wildcards so that user text matches literally (backslash is the default escape). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
