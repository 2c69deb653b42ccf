import { z } from "zod";
import { queryFields } from "~/lib/list-query";
import { pageSchema, searchTermSchema } from "~/lib/list-query-schema";
import {
  CONTACT_LIST_PARAMS,
  CONTACT_SORTS,
  MAX_CONTACT_SEARCH_LENGTH,
  OWNER_FILTERS,
  contactFiltersToSearch,
  SPAM_FILTER,
  type ContactListFilters,
} from "./contact-filters";
import { CONTACT_STATUSES } from "~/lib/domain";

// Server side only: keeps the validation library out of the admin bundle.
export { MAX_CONTACT_SEARCH_LENGTH };
const MAX_PAGE = 100_000;

// Lenient: a malformed value clears that parameter instead of failing the page.
const schema = z.object({
  q: searchTermSchema(MAX_CONTACT_SEARCH_LENGTH),
  status: z
    .enum([...CONTACT_STATUSES, SPAM_FILTER])
    .optional()
    .catch(undefined),
  owner: z.enum(OWNER_FILTERS).optional().catch(undefined),
  source: z.string().trim().min(1).max(100).optional().catch(undefined),
  sort: z.enum(CONTACT_SORTS).catch("newest"),
  page: pageSchema(MAX_PAGE),
});

export function parseContactFilters(params: URLSearchParams): {
  filters: ContactListFilters;
  page: number;
} {
  const parsed = schema.parse(queryFields(params, CONTACT_LIST_PARAMS));
  const filters: ContactListFilters = { sort: parsed.sort };
  if (parsed.q) filters.q = parsed.q;
  if (parsed.status) filters.status = parsed.status;
  if (parsed.owner) filters.owner = parsed.owner;
  if (parsed.source) filters.source = parsed.source;
  return { filters, page: parsed.page };
}

/** A list address posted back by a form (where to return after an action), made canonical. */
export function contactListPath(search: unknown): string {
  const text = typeof search === "string" && search.startsWith("?") ? search.slice(0, 1000) : "";
  const { filters, page } = parseContactFilters(new URLSearchParams(text));
  return `/admin/contacts${contactFiltersToSearch(filters, page)}`;
}
