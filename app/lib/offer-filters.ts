import type { OfferType } from "./domain";

/** Listing filter state (spec section 3), as carried in the URL: ?q=&type=&min=&max=&engagement=&page= */
export type OfferFilters = {
  searchTerm?: string;
  type?: OfferType;
  minPrice?: number;
  maxPrice?: number;
  commitment?: boolean;
};

export function hasActiveFilters(filters: OfferFilters): boolean {
  return Object.values(filters).some((v) => v !== undefined);
}

/** The canonical query string for a filter state (empty filters give ''). */
export function offerFiltersToSearch(filters: OfferFilters, page = 1): string {
  const params = new URLSearchParams();
  if (filters.searchTerm) params.set("q", filters.searchTerm);
  if (filters.type) params.set("type", filters.type);
  if (filters.minPrice !== undefined) params.set("min", String(filters.minPrice));
  if (filters.maxPrice !== undefined) params.set("max", String(filters.maxPrice));
  if (filters.commitment !== undefined) params.set("engagement", filters.commitment ? "yes" : "no");
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** Escapes LIKE wildcards so that user text matches literally (backslash is the default escape). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
