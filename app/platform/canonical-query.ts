import { redirect } from "react-router";
import { SOURCE_PARAM, SOURCE_PARAM_MAX, withSource } from "~/lib/attribution";

/**
 * One address per list view, for bookmarks, caches and crawlers: a GET form sends every field,
 * empty ones too, and a query may carry parameters the page ignores. Throws a redirect to `target`
 * when the request's list parameters (`keys`; any other is dropped) are not the canonical `search`
 * ('?a=1', or '' for the default view). The visit's origin (`src`, issue 42) goes along.
 */
export function ensureCanonicalQuery(
  params: URLSearchParams,
  keys: readonly string[],
  search: string,
  target: string,
  init?: ResponseInit,
): void {
  const known = new URLSearchParams([...params].filter(([key]) => keys.includes(key)));
  if ((known.size ? `?${known}` : "") !== search) throw redirectWithSource(target, params, init);
}

/** A redirect of a public page to `target`, carrying the visit's origin (`src`) of `params`. */
export function redirectWithSource(target: string, params: URLSearchParams, init?: ResponseInit) {
  return redirect(withSource(target, params.get(SOURCE_PARAM)?.slice(0, SOURCE_PARAM_MAX)), init);
}
