// The two headers that say when an answer may be reused or retried, each written by one helper so
// that every route, server module and the HTTP layer (http-server/) spell them the same way.

/** Who may keep an answer, and for how long. */
export type CachePolicy =
  /** Admin pages and answers: kept by no one. */
  | "no-store"
  /** A page for one visitor (a flash message, cookies), or one that must not outlive an outage. */
  | "private"
  /** For one visitor, kept by the browser only and checked again each time (an ETag: 304). */
  | "private-revalidate"
  /** For one visitor, kept by the browser only, for that many seconds. */
  | { privateMaxAge: number }
  /** Anonymous answers: seconds a browser (maxAge) and a shared cache (sMaxAge) may keep them. */
  | { maxAge: number; sMaxAge: number; staleWhileRevalidate?: number };

/** The Cache-Control header for a policy, to spread into a headers object. */
export function cacheControl(policy: CachePolicy): { "Cache-Control": string } {
  if (policy === "no-store") return { "Cache-Control": "no-store" };
  if (policy === "private") return { "Cache-Control": "private, no-store" };
  if (policy === "private-revalidate") return { "Cache-Control": "private, no-cache" };
  if ("privateMaxAge" in policy) {
    return { "Cache-Control": `private, max-age=${policy.privateMaxAge}` };
  }
  const { maxAge, sMaxAge, staleWhileRevalidate } = policy;
  const swr =
    staleWhileRevalidate === undefined ? "" : `, stale-while-revalidate=${staleWhileRevalidate}`;
  return { "Cache-Control": `public, max-age=${maxAge}, s-maxage=${sMaxAge}${swr}` };
}

/** Admin pages are private: never stored by a browser or proxy, never indexed. */
export const PRIVATE_HEADERS = {
  ...cacheControl("no-store"),
  "X-Robots-Tag": "noindex, nofollow",
} as const;

/**
 * A page with a secret in its address (an alert's, a quote's, a password reset's link): kept by no
 * cache, indexed by no robot, its address never sent to another site. `same-origin`, not
 * `no-referrer`: under the latter a browser posts the page's own form with `Origin: null`.
 */
export const SECRET_LINK_HEADERS = {
  ...cacheControl("no-store"),
  "Referrer-Policy": "same-origin",
  "X-Robots-Tag": "noindex, nofollow",
} as const;

/**
 * Names the one per-view token in a page (the contact form's, decision 022): the page cache keeps
 * the page for everyone and puts a fresh token in each answer (http-server/view-token.ts). Never sent.
 */
export const VIEW_TOKEN_HEADER = "X-View-Token";

/** How long a client waits before trying again while the database is unreachable (503). */
export const UNAVAILABLE_RETRY_SECONDS = 10;

/** The Retry-After header of a 429 or 503 answer, to spread into a headers object. */
export function retryAfter(seconds: number): { "Retry-After": string } {
  return { "Retry-After": String(seconds) };
}

/** A form page's headers: its loader's, with the Retry-After of a refused post (429, 503). */
export function formPageHeaders({
  loaderHeaders,
  actionHeaders,
}: {
  loaderHeaders: Headers;
  actionHeaders: Headers;
}): Headers {
  const headers = new Headers(loaderHeaders);
  const wait = actionHeaders.get("Retry-After");
  if (wait) headers.set("Retry-After", wait);
  return headers;
}

/**
 * A page's headers: its loader's Cache-Control, and the hints an error answer carries (Retry-After
 * on 429 and 503, Allow on 405). The root's, and a route's with its own error boundary (React
 * Router asks the boundary's route for the error's headers).
 */
export function pageHeaders({
  errorHeaders,
  loaderHeaders,
}: {
  errorHeaders?: Headers;
  loaderHeaders: Headers;
}): Headers {
  const headers = new Headers();
  const cache = loaderHeaders.get("Cache-Control");
  if (cache) headers.set("Cache-Control", cache);
  for (const name of ["Retry-After", "Allow"]) {
    const value = errorHeaders?.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}
