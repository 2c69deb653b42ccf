import type { ContactStatus } from "./domain";

/**
 * The admin list of contact requests, as carried in the URL: ?q=&status=&sort=&page=
 * `status=spam` shows the suspected spam, which every other view leaves out; `owner=me` the
 * viewer's requests ('Mes demandes'), `owner=none` those nobody owns ('Non attribuées').
 */
export const CONTACT_SORTS = ["newest", "oldest"] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];
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
  sort: ContactSort;
};

export const CONTACT_PAGE_SIZE = 50;

/** The canonical query string of a list view ('' for the default view). */
export function contactFiltersToSearch(filters: ContactListFilters, page = 1): string {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.status) params.set("status", filters.status);
  if (filters.owner) params.set("owner", filters.owner);
  if (filters.sort !== "newest") params.set("sort", filters.sort);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `?${search}` : "";
}
