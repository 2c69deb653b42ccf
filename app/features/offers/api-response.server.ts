import type { ApiProblem } from "~/lib/offer-api-schema";
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
