import { z } from "zod";
import { LEASE_PARAM } from "~/lib/offer-price";
import { CONFIGURATION_MAX, OPTION_LIMITS } from "~/lib/offer-options";

// The configuration in a quote's address (`?o0=1&o2=4&duree=36`, issue 21), checked at the
// boundary: options and duration are small whole numbers; other parameters (a campaign's tags)
// are left aside. Out-of-range choices then fall back to the defaults, as on the offer page.

const OPTION_KEY = /^o\d{1,2}$/;

export const CONFIGURATION_QUERY_INVALID =
  "La configuration demandée n'est pas valide : choisissez-la à nouveau sur la page de l'offre.";

const configurationEntries = z
  .array(z.tuple([z.string(), z.string().regex(/^\d{1,4}$/, CONFIGURATION_QUERY_INVALID)]))
  .max(OPTION_LIMITS.groups + 1, CONFIGURATION_QUERY_INVALID);

/** The configuration's parameters of a query, or an error in French. */
export function parseConfigurationQuery(
  query: string,
): { success: true; params: URLSearchParams } | { success: false; message: string } {
  if (query.length > CONFIGURATION_MAX * 2) {
    return { success: false, message: CONFIGURATION_QUERY_INVALID };
  }
  const entries = [...new URLSearchParams(query)].filter(
    ([key]) => OPTION_KEY.test(key) || key === LEASE_PARAM,
  );
  const parsed = configurationEntries.safeParse(entries);
  if (!parsed.success) return { success: false, message: CONFIGURATION_QUERY_INVALID };
  return { success: true, params: new URLSearchParams(parsed.data) };
}

/**
 * One spelling of a parsed configuration, to key what is derived from it (the quote PDF cache):
 * the first value of each parameter, as the offer page reads them, without leading zeros, in the
 * order of the names. Two queries with the same key configure the offer the same way.
 */
export function configurationKey(params: URLSearchParams): string {
  const first = new Map<string, string>();
  for (const [key, value] of params) if (!first.has(key)) first.set(key, String(Number(value)));
  return [...first]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
}
