import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import { z } from "zod";
import { cacheControl } from "../app/lib/http-headers";
import { httpRequestDuration, renderMetrics } from "../app/platform/metrics.server";

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

/** A full route pattern (`/offers/:slug`) as one regular expression, compiled once. */
function compilePattern(pattern: string, caseSensitive: boolean): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const source = pattern
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      if (segment === "*") return "(?:/.*)?";
      const optional = segment.endsWith("?");
      const name = optional ? segment.slice(0, -1) : segment;
      const part = name.startsWith(":") ? "/[^/]+" : `/${escape(name)}`;
      return optional ? `(?:${part})?` : part;
    })
    .join("");
  return new RegExp(`^${source}/?$`, caseSensitive ? "" : "i");
}

/** React Router's ranking of a branch (computeScore): static segments first, splats last. */
function patternScore(pattern: string, index: boolean): number {
  const segments = pattern.split("/");
  let score = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*") continue;
    score += /^:[\w-]+\??$/.test(segment) ? 3 : segment === "" ? 1 : 10;
  }
  return score;
}

/** A route of the build, with its full pattern (`/offers/:slug`). */
export type MatchedRoute = { pattern: string; route: NonNullable<ServerBuild["routes"][string]> };

/**
 * The route a path goes to (the catch-all included), from the build's route table. React Router's
 * data requests (`/offers.data`) count as their page. Compiled once: its own matchRoutes compiles
 * every route on each call (about 2 ms a request with our 39 routes), here a few regular
 * expressions are tried, in its order.
 */
export function routeMatcher(
  routes: ServerBuild["routes"],
): (pathname: string) => MatchedRoute | undefined {
  const table = Object.values(routes).filter((r) => r !== undefined);
  const byId = new Map(table.map((r) => [r.id, r]));
  const fullPath = (id: string) => {
    const parts: string[] = [];
    for (let r = byId.get(id); r; r = r.parentId ? byId.get(r.parentId) : undefined) {
      if (r.path) parts.unshift(r.path.replace(/^\/+|\/+$/g, ""));
    }
    return `/${parts.filter(Boolean).join("/")}`;
  };
  // As React Router: a route without a path matches only when it is an index route.
  const branches = table
    .filter((r) => r.index || (r.path !== undefined && r.path !== ""))
    .map((r, order) => {
      const pattern = fullPath(r.id);
      return {
        pattern,
        route: r,
        regex: compilePattern(pattern, r.caseSensitive === true),
        score: patternScore(pattern, r.index === true),
        order,
      };
    })
    .sort((a, b) => b.score - a.score || a.order - b.order);
  return (pathname) => {
    let path = pathname;
    if (path.endsWith(".data"))
      path = path === "/_root.data" ? "/" : path.slice(0, -".data".length);
    return branches.find((b) => b.regex.test(path));
  };
}

/** The route pattern of a path (`/offers/:slug`); undefined when no route but the catch-all matches. */
export function routePatterns(
  routes: ServerBuild["routes"],
): (pathname: string) => string | undefined {
  const match = routeMatcher(routes);
  return (pathname) => {
    const pattern = match(pathname)?.pattern;
    return pattern === undefined || pattern.endsWith("*") ? undefined : pattern;
  };
}

const measured = new WeakSet<ServerResponse>();

/**
 * Times one answer (called first by both entries of http-server/http.ts; an answer counts once). The
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
