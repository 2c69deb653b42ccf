import { setTimeout as pause } from "node:timers/promises";
import { parse } from "cookie";
import type { Request } from "express";
import { cacheControl, retryAfter } from "../app/lib/http-headers";
import { ERROR_MESSAGES } from "../app/lib/messages";
import { REFUSAL_PAUSE_MS, TokenBuckets } from "../app/platform/rate-limit.server";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from "../app/features/accounts/auth.server";
import { clientSubject } from "../app/platform/client-address.server";
import { log } from "../app/platform/log.server";
import { findSessionUser } from "../app/features/accounts/sessions.server";
import { apiProblem } from "../app/features/offers/api-response.server";
import { plainErrorPage } from "./error-page";
import { countRefusal } from "../app/platform/metrics.server";

/**
 * Paths left to limits of their own: the admin area (its guard answers anyone without a session
 * before any rendering; sign-in has its own limits) and the quote PDFs (app/features/quotes/public-quote.server.ts).
 */
const OWN_LIMITS = [
  /^\/admin(\/|\.data$|$)/,
  /^\/offers\/[^/]+\/devis\.pdf$/,
  // A sent quote's PDF (issue 29) takes the offer quote PDF's limits (limitedQuoteRender).
  /^\/devis\/[^/]+\/pdf$/,
];

export type RenderLimitOptions = { perMinute: number; burst: number; pauseMs?: number };

/**
 * The per-client limit of page renders (issue 28): every GET or HEAD that React Router renders
 * (page-cache misses: searches, configured offer pages; pages never kept: /contact, 404s, any
 * request with a cookie) takes a token of its client (clientSubject: IPv6 by /64). Stored pages
 * never come here (http-server/page-cache.ts). Kept in this process's memory: the limit protects this
 * process's CPU, and a round trip to the database per request would cost more than the check.
 *
 * Returns the French 429 page to send instead of rendering, or undefined to render. A signed-in
 * administrator is never refused: only a request that would be refused has its session looked up
 * (what the admin guard does for any request anyway), so a forged cookie buys nothing.
 */
export function renderLimit(options: RenderLimitOptions) {
  const clients = new TokenBuckets(options);
  return async (req: Request, requestId: string): Promise<Response | undefined> => {
    if (!clients.enabled || (req.method !== "GET" && req.method !== "HEAD")) return undefined;
    if (OWN_LIMITS.some((path) => path.test(req.path))) return undefined;
    const client = clientSubject(req.ip ?? "unknown");
    const take = clients.take(client);
    if (take.allowed || (await signedIn(req))) return undefined;
    countRefusal("page-render");
    if (take.first) log.warn("page render limit reached", { requestId, client });
    await pause(options.pauseMs ?? REFUSAL_PAUSE_MS);
    if (req.path.startsWith("/api/")) {
      const { title, detail } = ERROR_MESSAGES.renderLimited;
      return apiProblem(429, title, detail, retryAfter(take.retryAfterSeconds));
    }
    return new Response(plainErrorPage(ERROR_MESSAGES.renderLimited, requestId), {
      status: 429,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        ...cacheControl("no-store"),
        ...retryAfter(take.retryAfterSeconds),
      },
    });
  };
}

async function signedIn(req: Request): Promise<boolean> {
  const header = req.headers.cookie;
  if (!header) return false;
  const cookies = parse(header);
  const token = cookies[SECURE_SESSION_COOKIE] ?? cookies[SESSION_COOKIE];
  if (!token) return false;
  try {
    return (await findSessionUser(token)) !== undefined;
  } catch {
    // The database is unreachable: the page itself would answer 503 anyway.
    return false;
  }
}
