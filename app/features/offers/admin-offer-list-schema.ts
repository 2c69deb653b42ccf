import { z } from "zod";
import {
  ADMIN_OFFER_LIST_PARAMS,
  ADMIN_OFFERS_PATH,
  adminOfferListPath,
  OFFER_ACTIVITY,
  type AdminOfferListState,
} from "./admin-offer-list";
import { OFFER_TYPES } from "~/lib/domain";
import { MAX_PAGE, MAX_SEARCH_LENGTH } from "~/lib/offer-filters";
import { queryFields } from "~/lib/list-query";
import { pageSchema, searchTermSchema } from "~/lib/list-query-schema";

// Server side only (zod). Every parameter is lenient: junk clears that parameter, never a 500.
const listSchema = z.object({
  q: searchTermSchema(MAX_SEARCH_LENGTH),
  type: z.enum(OFFER_TYPES).optional().catch(undefined),
  status: z.enum(OFFER_ACTIVITY).optional().catch(undefined),
  page: pageSchema(MAX_PAGE),
});

export function parseAdminOfferList(params: URLSearchParams): AdminOfferListState {
  const parsed = listSchema.parse(queryFields(params, ADMIN_OFFER_LIST_PARAMS));
  return { ...parsed, q: parsed.q || undefined };
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
