import { z } from "zod";
import {
  ADMIN_OFFERS_PATH,
  adminOfferListPath,
  OFFER_ACTIVITY,
  type AdminOfferListState,
} from "./admin-offer-list";
import { OFFER_TYPES } from "./domain";
import { MAX_PAGE, MAX_SEARCH_LENGTH } from "./offer-filters";
import { searchTermSchema } from "./search-term-schema";

// Server side only (zod). Every parameter is lenient: junk clears that parameter, never a 500.
const listSchema = z.object({
  q: searchTermSchema(MAX_SEARCH_LENGTH),
  type: z.enum(OFFER_TYPES).optional().catch(undefined),
  status: z.enum(OFFER_ACTIVITY).optional().catch(undefined),
  page: z
    .string()
    .trim()
    .regex(/^\d{1,6}$/)
    .transform((v) => Math.min(Math.max(1, Number(v)), MAX_PAGE))
    .optional()
    .catch(undefined),
});

export function parseAdminOfferList(params: URLSearchParams): AdminOfferListState {
  const raw: Record<string, string> = {};
  for (const key of ["q", "type", "status", "page"]) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  const parsed = listSchema.parse(raw);
  return {
    q: parsed.q || undefined,
    type: parsed.type,
    status: parsed.status,
    page: parsed.page ?? 1,
  };
}

/**
 * Where to go back after an editor or list action: only the offer list itself, its query
 * re-parsed and rebuilt, so the value can never lead to another page or another site.
 */
export function safeOfferListReturn(value: unknown): string {
  if (typeof value !== "string" || value.length > 1000) return ADMIN_OFFERS_PATH;
  if (!value.startsWith(`${ADMIN_OFFERS_PATH}?`)) return ADMIN_OFFERS_PATH;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(value.slice(ADMIN_OFFERS_PATH.length + 1));
  } catch {
    return ADMIN_OFFERS_PATH;
  }
  return adminOfferListPath(parseAdminOfferList(params));
}
