import { z } from "zod";
import { JOURNAL_ACTION_KEYS } from "./journal";

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
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export type JournalQuery = z.infer<typeof journalFiltersSchema>;

export function parseJournalFilters(params: URLSearchParams): JournalQuery {
  const raw = Object.fromEntries(
    ["account", "action", "from", "to", "page"].map((key) => [key, params.get(key) || undefined]),
  );
  return journalFiltersSchema.parse(raw);
}

/** The query string of a view of the journal ('' for all, first page). */
export function journalSearch(query: Partial<JournalQuery>): string {
  const params = new URLSearchParams();
  for (const key of ["account", "action", "from", "to"] as const) {
    const value = query[key];
    if (value) params.set(key, value);
  }
  if (query.page && query.page > 1) params.set("page", String(query.page));
  return params.size ? `?${params}` : "";
}
