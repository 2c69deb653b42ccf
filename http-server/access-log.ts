import type { IncomingMessage, ServerResponse } from "node:http";
import { pinoHttp } from "pino-http";
import { logger } from "../app/platform/log.server";
import { watchOfferView } from "./offer-views";

/**
 * The `request` line: method, path without its query string (it may carry search terms or
 * tokens), status, duration, the request id and the page cache's outcome. No headers, so no
 * cookies.
 */
function requestFields(req: IncomingMessage, res: ServerResponse, durationMs: number) {
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const cache = res.getHeader("X-Cache");
  return {
    method: req.method,
    path: (query === -1 ? url : url.slice(0, query)).slice(0, 500),
    status: res.statusCode,
    durationMs,
    requestId: res.getHeader("X-Request-Id"),
    ...(cache ? { cache } : {}),
    ...(res.writableFinished ? {} : { aborted: true }),
  };
}

const httpLogger = pinoHttp({
  logger,
  // The line is written by the root logger, without pino-http's req/res objects.
  quietResLogger: true,
  // Prometheus scrapes (every 15 s or so, per instance) only at debug; refused ones stay at info.
  customLogLevel: (req, res) =>
    res.statusCode === 200 && req.url === "/metrics" ? "debug" : "info",
  customSuccessMessage: () => "request",
  customErrorMessage: () => "request",
  customSuccessObject: (req, res, result: { responseTime: number }) =>
    requestFields(req, res, result.responseTime),
  customErrorObject: (req, res, _error, result: { responseTime: number }) =>
    requestFields(req, res, result.responseTime),
});

const watched = new WeakSet<ServerResponse>();

/**
 * One line per request, written when the response ends (or the client goes away). Called first by
 * both the page cache's fast path and the Express app; a response is logged once whichever
 * answers it.
 */
export function logAccess(req: IncomingMessage, res: ServerResponse): void {
  if (watched.has(res)) return;
  watched.add(res);
  httpLogger(req, res);
  // The same once-per-response point counts the offer pages' views (issue 42).
  watchOfferView(req, res);
}
