import { randomBytes, randomUUID } from "node:crypto";
import compression from "compression";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import { currentDatabase, ping } from "../app/server/db.server";
import { env } from "../app/server/env.server";
import { log } from "../app/server/log.server";
import { catalogueReader } from "./catalogue-watch";
import { sendFetchResponse, toFetchRequest } from "./fetch-adapter";
import { defaultCacheControl, isCacheableRequest, PageCache } from "./page-cache";

declare module "react-router" {
  interface AppLoadContext {
    requestId: string;
    cspNonce: string;
    clientIp: string;
  }
}

export type HttpOptions = {
  /** Production: the built server. Development: a loader that asks Vite for it on each request. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Development only: Vite's middleware, which serves source modules and HMR. */
  viteMiddleware?: express.RequestHandler;
  clientDir?: string;
  /** When the build was made: pages served from the cache are never older (Last-Modified). */
  buildTime?: Date;
};

function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function createHttpApp(options: HttpOptions): Express {
  const e = env();
  const app = express();
  app.disable("x-powered-by");
  if (e.TRUST_PROXY) app.set("trust proxy", true);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const requestId = randomUUID();
    res.locals.requestId = requestId;
    res.locals.cspNonce = randomBytes(16).toString("base64");
    res.setHeader("X-Request-Id", requestId);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    if (!options.viteMiddleware) {
      res.setHeader("Content-Security-Policy", contentSecurityPolicy(res.locals.cspNonce));
    }
    if (req.secure)
      res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  });

  app.use(compression());

  app.get("/healthz", async (_req, res) => {
    try {
      await ping();
      res.setHeader("Cache-Control", "no-store");
      res.json({ status: "ok" });
    } catch {
      res.status(503).setHeader("Cache-Control", "no-store").json({ status: "unavailable" });
    }
  });

  // /offres is a permanent alias of the canonical /offers, query string kept.
  app.get(/^\/offres(\/.*)?$/, (req, res) => {
    const rest = req.path.slice("/offres".length);
    const query = req.originalUrl.slice(req.path.length);
    res.redirect(301, `/offers${rest}${query}`);
  });

  const handleRequest = createRequestHandler(options.build, process.env.NODE_ENV);
  const render = (req: Request, res: Response) =>
    handleRequest(toFetchRequest(req, res), {
      requestId: res.locals.requestId as string,
      cspNonce: res.locals.cspNonce as string,
      clientIp: req.ip ?? "unknown",
    });

  // Rendered anonymous public pages, kept per URL until the catalogue changes (server/page-cache.ts),
  // answered before the static files (none has their paths). Not in development, where the code
  // changes under it.
  const pageCache = options.viteMiddleware
    ? undefined
    : new PageCache({
        readCatalogue: catalogueReader(currentDatabase()),
        buildTime: options.buildTime ?? new Date(),
      });
  app.locals.pageCache = pageCache;
  if (pageCache) {
    app.use((req, res, next) => {
      if (!isCacheableRequest(req)) return next();
      pageCache.serve(req, res, () => render(req, res)).catch(next);
    });
  }

  if (options.viteMiddleware) {
    app.use(options.viteMiddleware);
  } else if (options.clientDir) {
    // Fingerprinted build output: cached forever.
    app.use(
      "/assets",
      express.static(`${options.clientDir}/assets`, {
        immutable: true,
        maxAge: "1y",
        index: false,
      }),
    );
    // The other public files (favicon...) all have an extension: pages skip the file lookup.
    const publicFiles = express.static(options.clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()));
  }

  app.all(/.*/, async (req, res, next) => {
    try {
      await sendFetchResponse(res, defaultCacheControl(await render(req, res)));
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
      .send(
        `<!doctype html><html lang="fr"><meta charset="utf-8"><title>Erreur</title>` +
          `<p>Une erreur inattendue s'est produite. Référence : ${String(res.locals.requestId)}</p></html>`,
      );
  });

  return app;
}
