// What the page cache may keep and how it answers: the cacheable requests, the headers stored
// with a page, the encoding chosen (http-server/page-cache.ts keeps and serves the pages).
import type { IncomingMessage } from "node:http";
import { referrerHost } from "../app/lib/attribution";
import { VIEW_TOKEN_HEADER } from "../app/lib/http-headers";
import { siteConfig } from "../app/platform/site.server";
import { acceptedEncodings } from "./compress";
import { type ViewTokenPage } from "./view-token";

/** A page as the cache keeps it. */
export type CachedPage = {
  version: string;
  status: number;
  headers: [string, string][];
  /** The page as rendered (without hydration it carries no nonce): the same bytes for everyone. */
  body: Buffer;
  /** Compressed copies, made once in the background. */
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  /** A page with a per-view token (the contact form): a fresh one in each answer, never a 304. */
  view?: ViewTokenPage;
};

/** The compressed copy to send for this Accept-Encoding (by q, then brotli first), if one is ready. */
export function preferredEncoding(
  req: IncomingMessage,
  entry: CachedPage,
): "br" | "gzip" | undefined {
  if (!entry.gzip && !entry.view?.gzip) return undefined;
  const accepted = acceptedEncodings(req);
  for (const encoding of accepted) {
    if (encoding === "identity") return undefined;
    if (encoding === "br" && entry.br) return "br";
    if (encoding === "gzip") return "gzip";
  }
  return undefined;
}

/**
 * The anonymous public pages and the API, by path (the comparison too: it depends on the catalogue only). Anything else (admin, sign-in, unknown paths) always goes
 * to React Router. /contact without a query too: each view gets its own form token as it is sent
 * (http-server/view-token.ts, docs/decisions/022); with one (`?offer=`) it is rendered per visit.
 */
const PUBLIC_PAGES = [
  /^\/$/,
  /^\/offers$/,
  /^\/offers\/[a-z0-9-]{1,200}$/,
  /^\/confidentialite$/,
  /^\/mentions-legales$/,
  // Any query: the page redirects other spellings of a selection to its one address.
  /^\/comparer$/,
  // The API (issue 30): JSON of the same catalogue; its renders are limited like the pages'.
  /^\/api\/offers$/,
  /^\/api\/offers\/[a-z0-9-]{1,200}$/,
];
const PUBLIC_RESOURCES = new Set([
  "/sitemap.xml",
  "/robots.txt",
  "/offers.atom",
  "/api/openapi.json",
  "/contact",
]);

/** Response headers that describe one response, never stored with the page. */
export const PER_RESPONSE_HEADERS = new Set([
  "cache-control",
  "connection",
  "content-length",
  "date",
  "etag",
  "keep-alive",
  "last-modified",
  "transfer-encoding",
  "vary",
  VIEW_TOKEN_HEADER.toLowerCase(),
]);

/**
 * Whether a request may be answered from the shared page cache: a GET or HEAD of a public page or
 * of the sitemap/robots, from a visitor who sends no cookie (an administrator's session, a flash
 * message: anything a cookie carries may change the page) and no credentials.
 */
export function isCacheableRequest(req: IncomingMessage): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.headers.cookie !== undefined || req.headers.authorization !== undefined) return false;
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (PUBLIC_RESOURCES.has(path)) return query === -1;
  if (!PUBLIC_PAGES.some((pattern) => pattern.test(path))) return false;
  // The first page of a visit from another site: its links carry that site (issue 42, `src`), so
  // it is rendered for this visit. Visits within the site and direct ones are served as kept.
  // Parsed only for a request that names a referring page: not on every cached hit.
  if (path.startsWith("/api/") || !req.headers.referer) return true;
  const own = [req.headers.host ?? "", new URL(siteConfig().baseUrl).hostname];
  return !referrerHost(req.headers.referer, own);
}

export function httpDate(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toUTCString();
}
