import { createHash } from "node:crypto";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { freshRead } from "../app/lib/fresh-read";
import { sendFetchResponse } from "./fetch-adapter";

/** What the cache needs to know about the catalogue (app/server/catalogue.server.ts). */
export type CatalogueState = { version: string; updatedAt: Date | null };

export type PageCacheOptions = {
  /** Reads the catalogue version from the database; every offer write bumps it. */
  readCatalogue: () => Promise<CatalogueState>;
  /** Last-Modified is never older than the build (a deploy changes pages too). */
  buildTime: Date;
  /** Bytes of HTML kept, least recently used first out. */
  maxBytes?: number;
  /** A page is rendered again after this long even when the catalogue has not changed. */
  maxAgeMs?: number;
  /** Seconds a shared cache (CDN) may keep a page, then serve it stale while it revalidates. */
  sharedMaxAge?: number;
  staleWhileRevalidate?: number;
};

type Entry = {
  version: string;
  storedAt: number;
  status: number;
  headers: [string, string][];
  /** The body split on the nonce of the response it was rendered for. */
  parts: string[];
  bytes: number;
  etag: string;
};

/**
 * The anonymous public pages, by path. Anything else (admin, sign-in, unknown paths) always goes
 * to React Router. /contact only without a query: ?offer= preselects an offer for one visitor.
 */
const PUBLIC_PAGES = [/^\/$/, /^\/offers$/, /^\/offers\/[a-z0-9-]{1,200}$/, /^\/contact$/];
const PUBLIC_RESOURCES = new Set(["/sitemap.xml", "/robots.txt"]);

/** Response headers that describe one response, never stored with the page. */
const PER_RESPONSE_HEADERS = new Set([
  "cache-control",
  "connection",
  "content-length",
  "date",
  "etag",
  "keep-alive",
  "last-modified",
  "transfer-encoding",
  "vary",
]);

export const ANONYMOUS_CACHE_CONTROL = (sMaxAge: number, swr: number) =>
  `public, max-age=0, s-maxage=${sMaxAge}, stale-while-revalidate=${swr}`;
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/**
 * Whether a request may be answered from the shared page cache: a GET or HEAD of a public page or
 * of the sitemap/robots, from a visitor who sends no cookie (an administrator's session, a flash
 * message: anything a cookie carries may change the page) and no credentials.
 */
export function isCacheableRequest(req: ExpressRequest): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.headers.cookie !== undefined || req.headers.authorization !== undefined) return false;
  const path = req.path;
  if (PUBLIC_RESOURCES.has(path)) return req.originalUrl === path;
  if (path === "/contact") return req.originalUrl === path;
  return PUBLIC_PAGES.some((pattern) => pattern.test(path));
}

function httpDate(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toUTCString();
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === bare);
}

/**
 * A per-instance cache of rendered public pages (path and query), shared by all anonymous
 * visitors and invalidated by the catalogue version.
 *
 * - Freshness: each request reads the catalogue version through `freshRead`, so a request that
 *   arrives after an offer write has committed (on any instance: the version lives in the
 *   database) never gets a page rendered before it. Concurrent requests share one small query.
 * - CSP nonces: the page is stored split on the nonce it was rendered with; each response joins
 *   the parts with its own fresh nonce (the one in its Content-Security-Policy header).
 * - Only 200 answers without Set-Cookie or a private/no-store Cache-Control are kept.
 * - ETag: a weak hash of the page without its nonce, the same on every instance; Last-Modified:
 *   the catalogue's last change (or the build, if later). 304 when the browser's copy is current.
 */
export class PageCache {
  private entries = new Map<string, Entry>();
  private rendering = new Map<string, Promise<Entry | undefined>>();
  private bytes = 0;
  private version: string | undefined;
  private readonly catalogue: () => Promise<CatalogueState>;
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly cacheControl: string;
  readonly stats = { hits: 0, misses: 0, notModified: 0, bypassed: 0 };

  constructor(private readonly options: PageCacheOptions) {
    this.catalogue = freshRead(options.readCatalogue);
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
    this.cacheControl = ANONYMOUS_CACHE_CONTROL(
      options.sharedMaxAge ?? 60,
      options.staleWhileRevalidate ?? 600,
    );
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Answers a cacheable request (see isCacheableRequest) from the cache or by rendering it. */
  async serve(
    req: ExpressRequest,
    res: ExpressResponse,
    render: () => Promise<Response>,
  ): Promise<void> {
    const state = await this.catalogue();
    if (state.version !== this.version) {
      this.clear();
      this.version = state.version;
    }
    const key = req.originalUrl;
    const nonce = String(res.locals.cspNonce ?? "");
    const lastModified = this.lastModified(state);

    const cached = this.lookup(key, state.version);
    if (cached) {
      this.stats.hits += 1;
      this.send(req, res, cached, nonce, lastModified, "HIT");
      return;
    }
    if (req.method === "HEAD") {
      // React Router answers HEAD without a body: nothing to keep.
      this.stats.bypassed += 1;
      await sendFetchResponse(res, defaultCacheControl(await render()));
      return;
    }

    // One render per page and version: whoever asks meanwhile waits for it.
    const renderKey = `${state.version} ${key}`;
    const pending = this.rendering.get(renderKey);
    if (pending) {
      const entry = await pending.catch(() => undefined);
      if (entry) {
        this.stats.hits += 1;
        this.send(req, res, entry, nonce, lastModified, "HIT");
        return;
      }
      // Not cacheable after all (a 404, a redirect...): render it for this request too.
    }

    this.stats.misses += 1;
    let uncacheable: Response | undefined;
    const job = (async () => {
      const response = await render();
      if (this.isCacheableResponse(response)) {
        return this.store(key, state.version, response, nonce);
      }
      uncacheable = response;
      return undefined;
    })();
    this.rendering.set(renderKey, job);
    let entry: Entry | undefined;
    try {
      entry = await job;
    } finally {
      if (this.rendering.get(renderKey) === job) this.rendering.delete(renderKey);
    }
    if (entry) this.send(req, res, entry, nonce, lastModified, "MISS");
    else if (uncacheable) await sendFetchResponse(res, defaultCacheControl(uncacheable));
  }

  private lookup(key: string, version: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || Date.now() - entry.storedAt > this.maxAgeMs) {
      this.remove(key, entry);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  private async store(
    key: string,
    version: string,
    response: Response,
    nonce: string,
  ): Promise<Entry | undefined> {
    const body = await response.text();
    const headers: [string, string][] = [];
    for (const [name, value] of response.headers.entries()) {
      if (!PER_RESPONSE_HEADERS.has(name.toLowerCase())) headers.push([name, value]);
    }
    const parts = nonce ? body.split(nonce) : [body];
    const hash = createHash("sha256");
    for (const part of parts) hash.update(part).update("\0");
    const entry: Entry = {
      version,
      storedAt: Date.now(),
      status: response.status,
      headers,
      parts,
      bytes: Buffer.byteLength(body),
      etag: `W/"${hash.digest("base64url").slice(0, 27)}"`,
    };
    // A write may have bumped the version while this page rendered: keep it only if still current.
    if (this.version === version && entry.bytes <= this.maxBytes / 4) {
      const previous = this.entries.get(key);
      if (previous) this.remove(key, previous);
      this.entries.set(key, entry);
      this.bytes += entry.bytes;
      for (const [oldKey, old] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        this.remove(oldKey, old);
      }
    }
    return entry;
  }

  private isCacheableResponse(response: Response): boolean {
    if (response.status !== 200 || !response.body) return false;
    if (response.headers.has("set-cookie")) return false;
    const cacheControl = response.headers.get("cache-control") ?? "";
    if (/private|no-store|no-cache/i.test(cacheControl)) return false;
    return /^(text\/html|application\/xml|text\/plain)/i.test(
      response.headers.get("content-type") ?? "",
    );
  }

  private lastModified(state: CatalogueState): Date {
    const build = this.options.buildTime;
    return state.updatedAt && state.updatedAt > build ? state.updatedAt : build;
  }

  private send(
    req: ExpressRequest,
    res: ExpressResponse,
    entry: Entry,
    nonce: string,
    lastModified: Date,
    outcome: "HIT" | "MISS",
  ): void {
    res.setHeader("Cache-Control", this.cacheControl);
    res.setHeader("ETag", entry.etag);
    res.setHeader("Last-Modified", httpDate(lastModified));
    res.append("Vary", "Cookie");
    res.setHeader("X-Cache", outcome);

    const ifNoneMatch = req.headers["if-none-match"];
    const ifModifiedSince = req.headers["if-modified-since"];
    const notModified =
      ifNoneMatch !== undefined
        ? etagMatches(ifNoneMatch, entry.etag)
        : ifModifiedSince !== undefined &&
          Math.floor(lastModified.getTime() / 1000) * 1000 <= Date.parse(ifModifiedSince);
    if (notModified) {
      this.stats.notModified += 1;
      res.status(304).end();
      return;
    }

    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.status(entry.status);
    const body = Buffer.from(entry.parts.join(nonce));
    res.setHeader("Content-Length", body.length);
    if (req.method === "HEAD") res.end();
    else res.end(body);
  }
}

/**
 * Cache-Control for a dynamic response that is not a cached public page (redirects, 404s, errors,
 * form posts, pages for a visitor with cookies): unless the route said otherwise, kept by no one.
 */
export function defaultCacheControl(response: Response): Response {
  if (!response.headers.has("cache-control")) {
    response.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
  }
  return response;
}
