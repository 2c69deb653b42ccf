import type { OfferType } from "~/lib/domain";
import { listSearch } from "~/lib/list-query";

// The admin offer list's state as carried in the URL: /admin/offers?q=&type=&status=&page=
// Pure and free of zod, so the list view can build its links in the browser too.

export const ADMIN_OFFERS_PATH = "/admin/offers";
export const ADMIN_PAGE_SIZE = 50;
/** The query parameters the list reads; any other is dropped from its address. */
export const ADMIN_OFFER_LIST_PARAMS = ["q", "type", "status", "page"] as const;

export const OFFER_ACTIVITY = ["active", "inactive"] as const;
export type OfferActivity = (typeof OFFER_ACTIVITY)[number];

export type AdminOfferListState = {
  q?: string;
  type?: OfferType;
  status?: OfferActivity;
  page: number;
};

export function hasListFilters(state: AdminOfferListState): boolean {
  return Boolean(state.q || state.type || state.status);
}

/** The canonical query string of a list state ('' for the first page without filters). */
export function adminOfferListSearch(state: AdminOfferListState, page = state.page): string {
  return listSearch([
    ["q", state.q],
    ["type", state.type],
    ["status", state.status],
    ["page", page],
  ]);
}

export function adminOfferListPath(state: AdminOfferListState, page = state.page): string {
  return `${ADMIN_OFFERS_PATH}${adminOfferListSearch(state, page)}`;
}

/** An editor address that brings the administrator back to `listPath` after saving. */
export function withReturnTo(path: string, listPath: string): string {
  if (listPath === ADMIN_OFFERS_PATH) return path;
  const separator = path.includes("?") ? "&" : "?";
  return `${path}${separator}returnTo=${encodeURIComponent(listPath)}`;
}
