import { z } from "zod";
import { searchTermSchema } from "./search-term-schema";
import { OFFER_TYPES } from "./domain";
import { DEFAULT_SORT, OFFER_SORTS, type OfferFilters, type OfferSort } from "./offer-filters";

// Server side only: keeps the validation library out of the listing's browser bundle.
export const MAX_SEARCH_LENGTH = 100;
export const MAX_PRICE_FILTER = 1_000_000;
export const MAX_PAGE = 10_000;
export const MAX_RAM_FILTER = 100_000;
export const MAX_CORES_FILTER = 10_000;

/** The query parameters the listing reads; any other is ignored (and dropped from its address). */
export const LISTING_PARAMS = [
  "q",
  "type",
  "min",
  "max",
  "ram_min",
  "cores_min",
  "engagement",
  "sort",
  "page",
] as const;

// Every parameter is lenient: a malformed value clears that filter instead of failing the page.
const intParam = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(?:[.,]\d*)?$/)
    .transform((v) => Math.min(Number.parseInt(v, 10), max))
    .optional()
    .catch(undefined);

const filtersSchema = z.object({
  q: searchTermSchema(MAX_SEARCH_LENGTH),
  type: z.enum(OFFER_TYPES).optional().catch(undefined),
  min: intParam(MAX_PRICE_FILTER),
  max: intParam(MAX_PRICE_FILTER),
  ram_min: intParam(MAX_RAM_FILTER),
  cores_min: intParam(MAX_CORES_FILTER),
  engagement: z
    .enum(["yes", "no"])
    .transform((v) => v === "yes")
    .optional()
    .catch(undefined),
  sort: z.enum(OFFER_SORTS).optional().catch(undefined),
  page: intParam(MAX_PAGE),
});

export function parseOfferFilters(params: URLSearchParams): {
  filters: OfferFilters;
  page: number;
  sort: OfferSort;
} {
  const raw: Record<string, string> = {};
  for (const key of LISTING_PARAMS) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  const parsed = filtersSchema.parse(raw);
  const filters: OfferFilters = {};
  if (parsed.q) filters.searchTerm = parsed.q;
  if (parsed.type) filters.type = parsed.type;
  if (parsed.min !== undefined) filters.minPrice = parsed.min;
  if (parsed.max !== undefined) filters.maxPrice = parsed.max;
  // 0 means "any": the same results as no filter, so one address for both.
  if (parsed.ram_min) filters.ramMin = parsed.ram_min;
  if (parsed.cores_min) filters.coresMin = parsed.cores_min;
  if (parsed.engagement !== undefined) filters.commitment = parsed.engagement;
  return { filters, page: Math.max(1, parsed.page ?? 1), sort: parsed.sort ?? DEFAULT_SORT };
}
