import type { ContactStatus } from "~/lib/domain";
import { listSearch } from "~/lib/list-query";

/**
 * The admin list of contact requests, as carried in the URL: ?q=&status=&sort=&page=
 * `status=spam` shows the suspected spam, which every other view leaves out; `owner=me` the
 * viewer's requests ('Mes demandes'), `owner=none` those nobody owns ('Non attribuées').
 */
/** The list's columns that sort it (issue 22); `newest`/`oldest` are the date's two directions. */
export const SORT_COLUMNS = ["date", "name", "offer", "status", "owner", "activity"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export const CONTACT_SORTS = [
  "newest",
  "oldest",
  "name",
  "name-desc",
  "offer",
  "offer-desc",
  "status",
  "status-desc",
  "owner",
  "owner-desc",
  "activity",
  "activity-desc",
] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

/** A sort as a column and a direction. */
export function sortParts(sort: ContactSort): { column: SortColumn; descending: boolean } {
  if (sort === "newest") return { column: "date", descending: true };
  if (sort === "oldest") return { column: "date", descending: false };
  const [column, direction] = sort.split("-") as [SortColumn, string | undefined];
  return { column, descending: direction === "desc" };
}

/**
 * The sort a column's header link asks for: the other direction when the list is already sorted
 * by it, else its natural first direction (newest first for dates, A to Z for text).
 */
export function sortFor(column: SortColumn, current: ContactSort): ContactSort {
  const now = sortParts(current);
  const descending =
    now.column === column ? !now.descending : column === "date" || column === "activity";
  if (column === "date") return descending ? "newest" : "oldest";
  return (descending ? `${column}-desc` : column) as ContactSort;
}
export const SPAM_FILTER = "spam";
export type ContactStatusFilter = ContactStatus | typeof SPAM_FILTER;

export const OWNER_FILTERS = ["me", "none"] as const;
export type OwnerFilter = (typeof OWNER_FILTERS)[number];
export const OWNER_FILTER_LABELS: Record<OwnerFilter, string> = {
  me: "Mes demandes",
  none: "Non attribuées",
};

export type ContactListFilters = {
  q?: string;
  status?: ContactStatusFilter;
  owner?: OwnerFilter;
  /** Where the visit came from (issue 42): the requests of one utm_source. */
  source?: string;
  sort: ContactSort;
};

export const CONTACT_PAGE_SIZE = 50;
export const MAX_CONTACT_SEARCH_LENGTH = 100;

/** The query parameters the list reads; any other is dropped from its address. */
export const CONTACT_LIST_PARAMS = ["q", "status", "owner", "source", "sort", "page"] as const;

/** The canonical query string of a list view ('' for the default view). */
export function contactFiltersToSearch(filters: ContactListFilters, page = 1): string {
  return listSearch([
    ["q", filters.q],
    ["status", filters.status],
    ["owner", filters.owner],
    ["source", filters.source],
    ["sort", filters.sort !== "newest" && filters.sort],
    ["page", page],
  ]);
}
