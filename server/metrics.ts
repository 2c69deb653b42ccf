import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { z } from "zod";
import { cacheControl } from "../app/lib/http-headers";
import { httpRequestDuration, renderMetrics } from "../app/server/metrics.server";

/**
 * The HTTP side of the metrics (issue 31): each answer's duration in `http_request_duration_seconds`
 * by route pattern (never the address: the label's values are the route table's), and GET
 * /metrics for Prometheus.
 */

/** What labels an answer that React Router does not route. */
export const FIXED_ROUTES = {
  pageCache: "page-cache",
  static: "static",
  unmatched: "unmatched",
} as const;

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A route of the build's table, as matchRoutes reads it. */
type RouteNode = {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteNode[];
};

/**
 * The route pattern of a path (`/offers/:slug`), from the build's route table; undefined when no
 * route but the catch-all matches. React Router's data requests (`/offers.data`) count as their page.
 */
export function routePatterns(
  routes: ServerBuild["routes"],
): (pathname: string) => string | undefined {
  const nodes = new Map<string, RouteNode>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    nodes.set(route.id, {
      id: route.id,
      path: route.path,
      caseSensitive: route.caseSensitive,
      ...(route.index ? { index: true } : {}),
    });
  }
  const roots: RouteNode[] = [];
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  const table = roots as RouteObject[];
  return (pathname) => {
    let path = pathname;
    if (path.endsWith(".data"))
      path = path === "/_root.data" ? "/" : path.slice(0, -".data".length);
    const matches = matchRoutes(table, path);
    if (!matches) return undefined;
    const segments = matches.map((m) => m.route.path ?? "").filter((p) => p !== "" && p !== "/");
    if (segments.at(-1)?.endsWith("*")) return undefined;
    return `/${segments.join("/")}`;
  };
}

const measured = new WeakSet<ServerResponse>();

/**
 * Times one answer (called first by both entries of server/http.ts; an answer counts once). The
 * route label: `page-cache` for pages answered from memory, the route pattern for what React
 * Router answers, `static` for files, `unmatched` for the rest (404s).
 */
export function measureResponse(
  req: IncomingMessage,
  res: ServerResponse,
  routeOf: ((pathname: string) => string | undefined) | undefined,
): void {
  if (measured.has(res)) return;
  measured.add(res);
  const start = process.hrtime.bigint();
  res.once("finish", () => {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    let route: string;
    if (res.getHeader("X-Cache") === "HIT") route = FIXED_ROUTES.pageCache;
    else if (pathname === "/healthz" || pathname === "/metrics") route = pathname;
    else if (pathname.startsWith("/assets/")) route = FIXED_ROUTES.static;
    else {
      const pattern = routeOf?.(pathname);
      route = pattern ?? (/\.\w+$/.test(pathname) ? FIXED_ROUTES.static : FIXED_ROUTES.unmatched);
    }
    const method = METHODS.has(req.method ?? "") ? req.method! : "other";
    httpRequestDuration.observe({ method, route, status_code: String(res.statusCode) }, seconds);
  });
}

/** `Authorization: Bearer <token>` (RFC 6750's token68); anything else reads as no token. */
const bearerSchema = z
  .string()
  .max(1024)
  .regex(/^Bearer +[A-Za-z0-9._~+/-]+=*$/i)
  .transform((header) => header.replace(/^Bearer +/i, ""));

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * GET /metrics, mounted only when METRICS_TOKEN is set (else the path is an unknown page, 404):
 * 401 without the right bearer token, compared in constant time (of hashes, equal lengths).
 */
export function metricsEndpoint(token: string): RequestHandler {
  const expected = digest(token);
  return async (req, res, next) => {
    const given = bearerSchema.safeParse(req.headers.authorization);
    if (!given.success || !timingSafeEqual(digest(given.data), expected)) {
      res
        .status(401)
        .set({ ...cacheControl("no-store"), "WWW-Authenticate": 'Bearer realm="metrics"' })
        .type("text/plain")
        .send("Authentification requise : Authorization: Bearer <METRICS_TOKEN>\n");
      return;
    }
    try {
      const { contentType, body } = await renderMetrics();
      res.status(200).set(cacheControl("no-store")).type(contentType).send(body);
    } catch (error) {
      next(error);
    }
  };
}
