import { z } from "zod";
import { searchTermSchema } from "./search-term-schema";
import { OFFER_TYPES } from "./domain";
import type { OfferFilters } from "./offer-filters";

// Server side only: keeps the validation library out of the listing's browser bundle.
export const MAX_SEARCH_LENGTH = 100;
export const MAX_PRICE_FILTER = 1_000_000;
export const MAX_PAGE = 10_000;

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
  engagement: z
    .enum(["yes", "no"])
    .transform((v) => v === "yes")
    .optional()
    .catch(undefined),
  page: intParam(MAX_PAGE),
});

export function parseOfferFilters(params: URLSearchParams): {
  filters: OfferFilters;
  page: number;
} {
  const raw: Record<string, string> = {};
  for (const key of ["q", "type", "min", "max", "engagement", "page"]) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  const parsed = filtersSchema.parse(raw);
  const filters: OfferFilters = {};
  if (parsed.q) filters.searchTerm = parsed.q;
  if (parsed.type) filters.type = parsed.type;
  if (parsed.min !== undefined) filters.minPrice = parsed.min;
  if (parsed.max !== undefined) filters.maxPrice = parsed.max;
  if (parsed.engagement !== undefined) filters.commitment = parsed.engagement;
  return { filters, page: Math.max(1, parsed.page ?? 1) };
}
