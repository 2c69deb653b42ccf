import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import { currentDatabase, isDatabaseReady, ping } from "../app/platform/db.server";
import { env } from "../app/platform/env.server";
import { log } from "../app/platform/log.server";
import { watchPageCache } from "../app/platform/metrics.server";
import { setCatalogueMemoReader } from "../app/features/offers/catalogue-memo.server";
import { logAccess } from "./access-log";
import { catalogueReader } from "./catalogue-watch";
import { compressStream } from "./compress";
import { isDraining, watchResponse } from "./draining";
import { measureResponse, metricsEndpoint, routePatterns } from "./metrics";
import { refuseCrossSiteRequests } from "./cross-site";
import { plainErrorPage } from "./error-page";
import { allowedMethods, answerOptions } from "./options";
import { applyProxyTrust, compileProxyTrust, isSecureRequest, proxyTrustOf } from "./proxy-trust";
import { sendFetchResponse, toFetchRequest } from "./fetch-adapter";
import { defaultCacheControl, PageCache } from "./page-cache";
import { isCacheableRequest } from "./page-cache-rules";
import { renderLimit } from "./render-limit";
import { MAX_BODY_BYTES, readRequestBody } from "./request-body";
import {
  LEASE_UPLOAD_PATH,
  leaseUploadLimits,
} from "../app/features/lease-file/document-limits.server";
import { contentSecurityPolicy, newNonce, setSecurityHeaders } from "./security-headers";
import { cacheControl, retryAfter, UNAVAILABLE_RETRY_SECONDS } from "../app/lib/http-headers";
import { ERROR_MESSAGES } from "../app/lib/messages";

declare module "react-router" {
  interface AppLoadContext {
    requestId: string;
    cspNonce: string;
    clientIp: string;
  }
}

type RouteOf = ((pathname: string) => string | undefined) | undefined;

export type HttpOptions = {
  /** Production: the built server. Development: a loader that asks Vite for it on each request. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Development only: Vite's middleware, which serves source modules and HMR. */
  viteMiddleware?: express.RequestHandler;
  clientDir?: string;
  /** When the build was made: pages served from the cache are never older (Last-Modified). */
  buildTime?: Date;
};

/**
 * What every response carries, stored pages included: a request id and the security headers
 * (`withCsp`: not in development, where Vite injects scripts). Shared by the Express middleware
 * and the page cache's fast path (createRequestListener).
 */
function beginResponse(res: ServerResponse, secure: boolean, withCsp: boolean): string {
  const requestId = randomUUID();
  res.setHeader("X-Request-Id", requestId);
  setSecurityHeaders(res, { secure, withCsp });
  return requestId;
}

/**
 * The server's request listener: stored public pages straight from memory when the catalogue
 * version is known without waiting (the embedded database), everything else through Express
 * (createHttpApp), which also serves stored pages after a fresh version check.
 */
export function createRequestListener(
  options: HttpOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const app = createHttpApp(options);
  const pageCache = app.locals.pageCache as PageCache | undefined;
  if (!pageCache) return app;
  const routeOf = app.locals.routeOf as RouteOf;
  // The same compiled TRUST_PROXY function as the Express app's.
  const trust = proxyTrustOf(app);
  return (req, res) => {
    logAccess(req, res);
    measureResponse(req, res, routeOf);
    watchResponse(res);
    const served = pageCache.serveStored(req, res, () => {
      beginResponse(res, isSecureRequest(req, trust), true);
    });
    if (!served) app(req, res);
  };
}

export function createHttpApp(options: HttpOptions): Express {
  const e = env();
  const app = express();
  app.disable("x-powered-by");
  // Reverse proxies trusted by address (TRUST_PROXY): req.ip is the closest X-Forwarded-For entry
  // that is not a trusted proxy, and req.protocol / req.host follow X-Forwarded-Proto / -Host, only
  // when the peer is one (http-server/proxy-trust.ts).
  applyProxyTrust(app, compileProxyTrust(e.TRUST_PROXY));
  // Route patterns for the metrics (in development, the build changes under it: no patterns).
  const routeOf: RouteOf =
    typeof options.build === "function" ? undefined : routePatterns(options.build.routes);
  app.locals.routeOf = routeOf;

  app.use((req: Request, res: Response, next: NextFunction) => {
    logAccess(req, res);
    measureResponse(req, res, routeOf);
    watchResponse(res);
    res.locals.requestId = beginResponse(res, req.secure, !options.viteMiddleware);
    next();
  });

  // OPTIONS never reaches React Router, which would run the address's loader (http-server/options.ts).
  app.use(
    answerOptions(
      allowedMethods(typeof options.build === "function" ? undefined : options.build.routes),
    ),
  );

  // Prometheus (http-server/metrics.ts): before the database check, so that an instance waiting for
  // its database still answers; an unknown page (404) unless METRICS_TOKEN is set.
  if (e.METRICS_TOKEN) app.get("/metrics", metricsEndpoint(e.METRICS_TOKEN));

  // Started while PostgreSQL was unreachable: the French 503 page until the database is ready
  // (http-server/main.ts keeps trying); /healthz says why.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isDatabaseReady()) return next();
    res.status(503).set({ ...cacheControl("no-store"), ...retryAfter(UNAVAILABLE_RETRY_SECONDS) });
    if (req.path === "/healthz") {
      res.json({ status: "unavailable", database: "starting" });
      return;
    }
    res
      .type("html")
      .send(plainErrorPage(ERROR_MESSAGES.unavailable, res.locals.requestId as string | undefined));
  });

  const handleRequest = createRequestHandler(options.build, process.env.NODE_ENV);
  // Each rendered page gets its own nonce, for React Router's hydration scripts (root.tsx puts it
  // only on pages that hydrate).
  const render = (req: Request, res: Response) => {
    const cspNonce = newNonce();
    res.locals.cspNonce = cspNonce;
    if (res.hasHeader("Content-Security-Policy")) {
      res.setHeader("Content-Security-Policy", contentSecurityPolicy(cspNonce));
    }
    return handleRequest(toFetchRequest(req, res), {
      requestId: res.locals.requestId as string,
      cspNonce,
      clientIp: req.ip ?? "unknown",
    });
  };

  // Renders per client address (http-server/render-limit.ts): a French 429 instead, beyond the limit.
  // Not in development, where every page is rendered (no page cache) and reloaded at will.
  const limitRender = renderLimit({
    perMinute: options.viteMiddleware ? 0 : e.PUBLIC_RENDER_RATE_PER_MINUTE,
    burst: e.PUBLIC_RENDER_BURST,
  });
  const limitedRender = async (req: Request, res: Response) =>
    (await limitRender(req, res.locals.requestId as string)) ?? render(req, res);

  // Rendered anonymous public pages, kept per URL until the catalogue changes (http-server/page-cache.ts),
  // answered first: stored pages carry their own compressed copies and no static file has their
  // paths. Not in development, where the code changes under it.
  const readCatalogue = options.viteMiddleware ? undefined : catalogueReader(currentDatabase());
  const pageCache = readCatalogue
    ? new PageCache({ readCatalogue, buildTime: options.buildTime ?? new Date() })
    : undefined;
  // Catalogue reads kept per version for the pages rendered anyway (app/features/offers/catalogue-memo.server.ts).
  setCatalogueMemoReader(readCatalogue);
  app.locals.pageCache = pageCache;
  if (pageCache) watchPageCache(pageCache.stats);
  if (pageCache) {
    app.use((req, res, next) => {
      if (!isCacheableRequest(req)) return next();
      pageCache.serve(req, res, () => limitedRender(req, res)).catch(next);
    });
  }

  // Compression (http-server/compress.ts): rendered answers compress themselves as they are sent
  // (fetch-adapter.ts), static files through the middleware.

  app.get("/healthz", async (_req, res) => {
    // Stopping (SIGTERM): not ready, whatever the database says (http-server/draining.ts).
    if (isDraining()) {
      res
        .status(503)
        .set({ ...cacheControl("no-store"), ...retryAfter(UNAVAILABLE_RETRY_SECONDS) })
        .json({ status: "stopping" });
      return;
    }
    try {
      await ping();
      res.set(cacheControl("no-store")).json({ status: "ok", database: "ready" });
    } catch {
      res
        .status(503)
        .set({ ...cacheControl("no-store"), ...retryAfter(UNAVAILABLE_RETRY_SECONDS) })
        .json({ status: "unavailable", database: "unreachable" });
    }
  });

  // /offres is a permanent alias of the canonical /offers, query string kept.
  app.get(/^\/offres(\/.*)?$/, (req, res) => {
    const rest = req.path.slice("/offres".length);
    const query = req.originalUrl.slice(req.path.length);
    res.redirect(301, `/offers${rest}${query}`);
  });

  if (options.viteMiddleware) {
    app.use(options.viteMiddleware);
  } else if (options.clientDir) {
    // Fingerprinted build output: cached forever.
    app.use(
      "/assets",
      compressStream,
      express.static(`${options.clientDir}/assets`, {
        immutable: true,
        maxAge: "1y",
        index: false,
      }),
    );
    // The other public files (favicon...) all have an extension: pages skip the file lookup.
    const publicFiles = express.static(options.clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) =>
      /\.\w+$/.test(req.path)
        ? compressStream(req, res, () => publicFiles(req, res, next))
        : next(),
    );
  }

  // Posts from other sites are refused (403) for every action; bodies are read and size-checked
  // here (413) before React Router's request.formData().
  app.use(refuseCrossSiteRequests());
  app.use(
    readRequestBody(MAX_BODY_BYTES, {
      path: LEASE_UPLOAD_PATH,
      maxBytes: leaseUploadLimits().totalBytes,
    }),
  );

  app.all(/.*/, async (req, res, next) => {
    try {
      await sendFetchResponse(res, defaultCacheControl(await limitedRender(req, res)));
    } catch (error) {
      next(error);
    }
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    log.error("unhandled request error", {
      requestId: res.locals.requestId,
      path: req.path,
      error,
    });
    if (res.headersSent) return;
    res
      .status(500)
      .type("html")
      .send(plainErrorPage(ERROR_MESSAGES.unexpected, res.locals.requestId as string | undefined));
  });

  return app;
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (oversized headers or URL,
 * malformed syntax) get a short French answer instead of an empty one.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const copy = ERROR_MESSAGES.clientError;
    const [status, text] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? ["431 Request Header Fields Too Large", copy.headersTooLarge]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? ["408 Request Timeout", copy.timeout]
          : ["400 Bad Request", copy.malformed];
    const body = Buffer.from(`${text}\n`, "utf8");
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${body.length}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body.toString("utf8")}`,
    );
  });
}
