import { data } from "react-router";
import { log } from "~/platform/log.server";
import { retryAfter, UNAVAILABLE_RETRY_SECONDS } from "~/lib/http-headers";
import { ERROR_MESSAGES } from "~/lib/messages";

/** Network errors and PostgreSQL codes that mean "the database cannot be reached right now". */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up or shutting down)
  "53300", // too_many_connections
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|the database system is (starting up|shutting down)|Client was closed/i;

/** True when an error (or one of its causes) says the database is unreachable, not that a query is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 8; depth++) {
    if (typeof e !== "object") return false;
    const { code, syscall, message, cause, errors } = e as {
      code?: unknown;
      syscall?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) {
      return true;
    }
    // A unix socket that is not there is an unreachable server; a missing file is a bug (500).
    if (code === "ENOENT" && syscall === "connect") return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
    // Node's AggregateError (IPv4 and IPv6 both refused) keeps the codes in .errors.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    e = cause;
  }
  return false;
}

/**
 * The one handler of an unreachable database for loaders, actions and guards: runs `fn`; when the
 * database cannot be reached, logs it and answers 503 with the French 'service unavailable' page
 * and `Retry-After` (plus `headers`), or returns `fallback()` for a page that can do without the
 * database. Any other error goes on to the 500 page.
 */
export async function withDatabase<T, F = never>(
  what: string,
  context: { requestId?: string },
  fn: () => Promise<T>,
  options: { headers?: Record<string, string>; fallback?: () => F } = {},
): Promise<T | F> {
  try {
    return await fn();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    log.error(`${what}: database unavailable`, { requestId: context.requestId, error });
    if (options.fallback) return options.fallback();
    throw data(
      { message: ERROR_MESSAGES.unavailable.detail },
      { status: 503, headers: { ...options.headers, ...retryAfter(UNAVAILABLE_RETRY_SECONDS) } },
    );
  }
}
