import type { ApiProblem } from "./offer-api-schema";
import { cacheControl, retryAfter, UNAVAILABLE_RETRY_SECONDS } from "~/lib/http-headers";
import { ERROR_MESSAGES } from "~/lib/messages";
import { isDatabaseUnavailable } from "~/platform/availability.server";
import { log } from "~/platform/log.server";

// The API's answers (issue 30): JSON readable from any site (reads only: no cookie is sent back,
// nothing is changed), cached like the pages by http-server/page-cache.ts when 200.

/** Read-only answers any site's script may read. */
export const API_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, Last-Modified, Retry-After",
} as const;

/** The methods of the API's addresses (reads and the CORS preflight). */
export const API_METHODS = "GET, HEAD, OPTIONS";
/** How long a browser may keep a preflight's answer, in seconds: two hours, what Chromium keeps at most. */
export const API_PREFLIGHT_MAX_AGE = 7_200;
/** The request headers a cross-site read may send (besides the CORS-safelisted ones). */
export const API_ALLOWED_HEADERS = "Accept, Accept-Language, If-None-Match, If-Modified-Since";

/** A CORS preflight (OPTIONS, answered by the HTTP layer before React Router): what a cross-site read may send. */
export function apiPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...API_CORS,
      "Access-Control-Allow-Methods": API_METHODS,
      "Access-Control-Allow-Headers": API_ALLOWED_HEADERS,
      "Access-Control-Max-Age": String(API_PREFLIGHT_MAX_AGE),
      Allow: API_METHODS,
      ...cacheControl("no-store"),
    },
  });
}

/** The methods that would change something (React Router calls the action): 405 with Allow. */
export function apiMethodNotAllowed(): Response {
  return apiProblem(
    405,
    "Méthode non autorisée",
    `Cette adresse est en lecture seule : ${API_METHODS}.`,
    { Allow: API_METHODS },
  );
}

/** A 200 JSON answer; the page cache keeps it for anonymous requests (ETag, 304). */
export function apiJson(body: unknown, contentType = "application/json"): Response {
  return new Response(JSON.stringify(body), {
    headers: { "Content-Type": `${contentType}; charset=utf-8`, ...API_CORS },
  });
}

/** An RFC 9457 problem, in French, never cached. */
export function apiProblem(
  status: number,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  const body: ApiProblem = { status, title, detail };
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/problem+json; charset=utf-8",
      ...API_CORS,
      ...cacheControl("no-store"),
      ...headers,
    },
  });
}

/** Runs a read; an unreachable database is a JSON 503 with Retry-After, anything else goes on. */
export async function apiRead(
  what: string,
  context: { requestId?: string },
  read: () => Promise<Response>,
): Promise<Response> {
  try {
    return await read();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    log.warn(`${what}: database unavailable`, { requestId: context.requestId });
    const { title, detail } = ERROR_MESSAGES.unavailable;
    return apiProblem(503, title, detail, retryAfter(UNAVAILABLE_RETRY_SECONDS));
  }
}
