import { z } from "zod";
import { JOURNAL_ACTION_KEYS } from "./journal";
import { listSearch, queryFields } from "~/lib/list-query";
import { pageSchema } from "~/lib/list-query-schema";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(value)))
  .optional()
  .catch(undefined);

/** The journal's filters as the page's GET form sends them; anything odd reads as no filter. */
export const journalFiltersSchema = z.object({
  account: z.string().trim().toLowerCase().max(254).optional().catch(undefined),
  action: z.enum(JOURNAL_ACTION_KEYS).optional().catch(undefined),
  from: day,
  to: day,
  page: pageSchema(100_000),
});

export type JournalQuery = z.infer<typeof journalFiltersSchema>;

const JOURNAL_PARAMS = ["account", "action", "from", "to", "page"] as const;

export function parseJournalFilters(params: URLSearchParams): JournalQuery {
  return journalFiltersSchema.parse(queryFields(params, JOURNAL_PARAMS));
}

/** The query string of a view of the journal ('' for all, first page). */
export function journalSearch(query: Partial<JournalQuery>): string {
  return listSearch(JOURNAL_PARAMS.map((key) => [key, query[key]]));
}
