import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import fresh from "fresh";
import { LRUCache } from "lru-cache";
import { cacheControl, VIEW_TOKEN_HEADER } from "../app/lib/http-headers";
import { brotliForStore, gzipForStore } from "./compress";
import { sendFetchResponse } from "./fetch-adapter";
import { contentSecurityPolicy } from "./security-headers";
import { splitViewTokenPage, viewTokenBody, type ViewTokenPage } from "./view-token";
import {
  PER_RESPONSE_HEADERS,
  httpDate,
  isCacheableRequest,
  preferredEncoding,
  type CachedPage,
} from "./page-cache-rules";

/** What the cache needs to know about the catalogue (app/features/offers/catalogue.server.ts). */
export type CatalogueState = { version: string; updatedAt: Date | null };

/** The catalogue version as of now (see http-server/catalogue-watch.ts). */
export type CatalogueReader = {
  (): Promise<CatalogueState>;
  /** The version without waiting, when this process is told of every change (else undefined). */
  peek?: () => CatalogueState | undefined;
};

export type PageCacheOptions = {
  /** Never answers with a version older than the last committed offer write, on any instance. */
  readCatalogue: CatalogueReader;
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

/**
 * A per-instance cache of rendered public pages (path and query), shared by all anonymous
 * visitors and invalidated by the catalogue version.
 *
 * - Freshness: each request asks `readCatalogue` (http-server/catalogue-watch.ts) for the version, which
 *   never answers with a version older than the last committed write, on any instance.
 * - CSP: public pages do not hydrate, so they get no nonce (entry.server.tsx) and are served under the
 *   site's policy without one (http-server/security-headers.ts), which allows their one inline script
 *   by hash. A page that does contain its nonce is never kept: a stored nonce would be reusable.
 *   The same bytes go to every visitor, so they are compressed once (brotli and gzip).
 * - Only 200 answers without Set-Cookie or a private/no-store Cache-Control are kept.
 * - ETag: a weak hash of the page, the same on every instance; Last-Modified: the catalogue's last
 *   change (or the build, if later). 304 when the browser's copy is current (`fresh`).
 * - Memory: at most maxBytes of pages and their compressed copies, least recently used out first,
 *   each kept maxAgeMs at most (`lru-cache`).
 */
export class PageCache {
  private readonly entries: LRUCache<string, CachedPage>;
  private rendering = new Map<string, Promise<CachedPage | undefined>>();
  private version: string | undefined;
  private readonly catalogue: CatalogueReader;
  private readonly cacheControl: Record<string, string>;
  readonly stats = { hits: 0, misses: 0, notModified: 0, bypassed: 0 };

  constructor(private readonly options: PageCacheOptions) {
    this.catalogue = options.readCatalogue;
    const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.entries = new LRUCache<string, CachedPage>({
      maxSize: maxBytes,
      // One page never takes more than an eighth of the room.
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (entry) =>
        entry.body.length +
        (entry.gzip?.length ?? 0) +
        (entry.br?.length ?? 0) +
        (entry.view?.bytes ?? 0),
      // lru-cache reads 0 as 'no limit': the shortest time to live it has is 1 ms.
      ttl: Math.max(1, options.maxAgeMs ?? 10 * 60_000),
    });
    this.cacheControl = cacheControl({
      maxAge: 0,
      sMaxAge: options.sharedMaxAge ?? 60,
      staleWhileRevalidate: options.staleWhileRevalidate ?? 600,
    });
  }

  /** Entries kept and bytes they use, compressed copies included. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  clear(): void {
    this.entries.clear();
  }

  /** Answers a cacheable request (see isCacheableRequest) from the cache or by rendering it. */
  async serve(
    req: ExpressRequest,
    res: ExpressResponse,
    render: () => Promise<Response>,
  ): Promise<void> {
    // Anything not sent from the cache is compressed as it goes (fetch-adapter.ts); stored pages
    // carry their own compressed copies.
    const sendRendered = (response: Response) =>
      sendFetchResponse(res, defaultCacheControl(response));
    let state;
    try {
      state = await this.catalogue();
    } catch {
      // The database is unreachable: no cached answer can be trusted; the page itself answers
      // (a 503 from its loader), uncached.
      this.stats.bypassed += 1;
      await sendRendered(await render());
      return;
    }
    if (state.version !== this.version) {
      this.clear();
      this.version = state.version;
    }
    const key = req.url;
    const lastModified = this.lastModified(state);

    const cached = this.lookup(key, state.version);
    if (cached) {
      this.stats.hits += 1;
      this.send(req, res, cached, lastModified, "HIT");
      return;
    }
    if (req.method === "HEAD") {
      // React Router answers HEAD without a body: nothing to keep.
      this.stats.bypassed += 1;
      await sendRendered(await render());
      return;
    }

    // One render per page and version: whoever asks meanwhile waits for it.
    const renderKey = `${state.version} ${key}`;
    const pending = this.rendering.get(renderKey);
    if (pending) {
      const entry = await pending.catch(() => undefined);
      if (entry) {
        this.stats.hits += 1;
        this.send(req, res, entry, lastModified, "HIT");
        return;
      }
      // Not cacheable after all (a 404, a redirect...): render it for this request too.
    }

    this.stats.misses += 1;
    let uncacheable: Response | undefined;
    const job = (async () => {
      const response = await render();
      if (this.isCacheableResponse(response)) {
        const html = await response.text();
        const nonce = res.locals.cspNonce as string | undefined;
        const entry =
          !nonce || !html.includes(nonce)
            ? this.store(key, state.version, response, html)
            : undefined;
        if (!entry) uncacheable = new Response(html, response);
        return entry;
      }
      uncacheable = response;
      return undefined;
    })();
    this.rendering.set(renderKey, job);
    let entry: CachedPage | undefined;
    try {
      entry = await job;
    } finally {
      if (this.rendering.get(renderKey) === job) this.rendering.delete(renderKey);
    }
    if (entry) this.send(req, res, entry, lastModified, "MISS");
    else if (uncacheable) await sendRendered(uncacheable);
  }

  /**
   * The fast path, before Express: answers at once when the page is stored and the catalogue
   * version is known without waiting (see CatalogueReader.peek). `begin` sets the headers every
   * response carries (request id, security headers). False: let Express handle the request.
   */
  serveStored(req: IncomingMessage, res: ServerResponse, begin: () => void): boolean {
    const state = this.catalogue.peek?.();
    if (!state || state.version !== this.version || !isCacheableRequest(req)) return false;
    const entry = this.lookup(req.url ?? "", state.version);
    if (!entry) return false;
    this.stats.hits += 1;
    begin();
    this.send(req, res, entry, this.lastModified(state), "HIT");
    return true;
  }

  private lookup(key: string, version: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry : undefined;
  }

  private store(
    key: string,
    version: string,
    response: Response,
    html: string,
  ): CachedPage | undefined {
    const headers: [string, string][] = [];
    for (const [name, value] of response.headers.entries()) {
      if (!PER_RESPONSE_HEADERS.has(name.toLowerCase())) headers.push([name, value]);
    }
    const token = response.headers.get(VIEW_TOKEN_HEADER);
    const view = token ? splitViewTokenPage(html, token) : undefined;
    // The token not found once: this page is sent as rendered, and not kept.
    if (token && !view) return undefined;
    const body = view ? Buffer.alloc(0) : Buffer.from(html);
    const entry: CachedPage = {
      version,
      status: response.status,
      headers,
      body,
      etag: view ? "" : `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
      view,
    };
    // A write may have bumped the version while this page rendered: keep it only if still current.
    if (this.version === version && view) {
      this.entries.set(key, entry);
    } else if (this.version === version) {
      this.compress(entry);
      this.entries.set(key, entry);
      this.addBrotli(key, entry);
    }
    return entry;
  }

  /** gzip at once (a few ms, once per page and version); brotli off the request path. */
  private compress(entry: CachedPage): void {
    entry.gzip = gzipForStore(entry.body);
  }

  private addBrotli(key: string, entry: CachedPage): void {
    if (!entry.gzip) return;
    brotliForStore(entry.body)
      .then((br) => {
        entry.br = br;
        // Counted in the cache's size: set again, keeping its time to live.
        if (this.entries.peek(key) === entry) this.entries.set(key, entry, { noUpdateTTL: true });
      })
      .catch(() => {});
  }

  private isCacheableResponse(response: Response): boolean {
    if (response.status !== 200 || !response.body) return false;
    if (response.headers.has("set-cookie")) return false;
    const cacheControl = response.headers.get("cache-control") ?? "";
    // A page with a per-view token is private as sent, the same for everyone as stored.
    const shared = response.headers.has(VIEW_TOKEN_HEADER);
    if (!shared && /private|no-store|no-cache/i.test(cacheControl)) return false;
    return /^(text\/html|application\/xml|text\/plain|application\/json|application\/atom\+xml)/i.test(
      response.headers.get("content-type") ?? "",
    );
  }

  private lastModified(state: CatalogueState): Date {
    const build = this.options.buildTime;
    return state.updatedAt && state.updatedAt > build ? state.updatedAt : build;
  }

  private lastModifiedHeader = { date: 0, text: "" };

  private httpDate(date: Date): string {
    if (this.lastModifiedHeader.date !== date.getTime()) {
      this.lastModifiedHeader = { date: date.getTime(), text: httpDate(date) };
    }
    return this.lastModifiedHeader.text;
  }

  private send(
    req: IncomingMessage,
    res: ServerResponse,
    entry: CachedPage,
    lastModified: Date,
    outcome: "HIT" | "MISS",
  ): void {
    if (entry.view) {
      this.sendView(req, res, entry, entry.view, outcome);
      return;
    }
    res.setHeader("Cache-Control", this.cacheControl["Cache-Control"]);
    res.setHeader("ETag", entry.etag);
    res.setHeader("Last-Modified", this.httpDate(lastModified));
    res.setHeader("Vary", "Accept-Encoding, Cookie");
    res.setHeader("X-Cache", outcome);
    // The policy without a nonce: the page was rendered with one but does not use it (see above).
    if (res.hasHeader("Content-Security-Policy")) {
      res.setHeader("Content-Security-Policy", contentSecurityPolicy());
    }

    // Only the validators: a request's 'Cache-Control: no-cache' (which fetch() adds to any
    // conditional request) asks the origin to revalidate, and this answer is already revalidated
    // against the current catalogue version.
    // Cross-origin reads of the API revalidate too: its CORS headers go on a 304 as well.
    for (const [name, value] of entry.headers) {
      if (name.startsWith("access-control-")) res.setHeader(name, value);
    }
    const validators = {
      "if-none-match": req.headers["if-none-match"],
      "if-modified-since": req.headers["if-modified-since"],
    };
    if (fresh(validators, { etag: entry.etag, "last-modified": this.httpDate(lastModified) })) {
      this.stats.notModified += 1;
      res.statusCode = 304;
      res.end();
      return;
    }

    for (const [name, value] of entry.headers) res.setHeader(name, value);
    const encoding = preferredEncoding(req, entry);
    const body = encoding ? entry[encoding]! : entry.body;
    if (encoding) res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.statusCode = entry.status;
    if (req.method === "HEAD") res.end();
    else res.end(body);
  }

  /** A stored page with a fresh token: for this visitor only, no validators, never a 304. */
  private sendView(
    req: IncomingMessage,
    res: ServerResponse,
    entry: CachedPage,
    view: ViewTokenPage,
    outcome: "HIT" | "MISS",
  ): void {
    res.setHeader("Cache-Control", cacheControl("private")["Cache-Control"]);
    res.setHeader("Vary", "Accept-Encoding, Cookie");
    res.setHeader("X-Cache", outcome);
    if (res.hasHeader("Content-Security-Policy")) {
      res.setHeader("Content-Security-Policy", contentSecurityPolicy());
    }
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    const gzip = Boolean(view.gzip) && preferredEncoding(req, entry) === "gzip";
    const parts = viewTokenBody(view, gzip);
    if (gzip) res.setHeader("Content-Encoding", "gzip");
    res.setHeader(
      "Content-Length",
      parts.reduce((sum, part) => sum + part.length, 0),
    );
    res.statusCode = entry.status;
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    res.cork();
    for (const part of parts.slice(0, -1)) res.write(part);
    res.end(parts[parts.length - 1]);
  }
}

/**
 * Cache-Control for a dynamic response that is not a cached public page (redirects, 404s, errors,
 * form posts, pages for a visitor with cookies): unless the route said otherwise, kept by no one.
 */
export function defaultCacheControl(response: Response): Response {
  if (!response.headers.has("cache-control")) {
    response.headers.set("Cache-Control", cacheControl("private")["Cache-Control"]);
  }
  return response;
}
