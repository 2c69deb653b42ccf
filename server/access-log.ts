import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "../app/server/log.server";

const watched = new WeakSet<ServerResponse>();

/**
 * One `request` log line per request, written when the response ends (or the client goes away):
 * method, path without its query string (it may carry search terms or tokens), status, duration,
 * the request id and the page cache's outcome. No headers, so no cookies. Called first by both the
 * page cache's fast path and the Express app; a response is logged once whichever answers it.
 */
export function logAccess(req: IncomingMessage, res: ServerResponse): void {
  if (watched.has(res)) return;
  watched.add(res);
  const started = process.hrtime.bigint();
  res.once("close", () => {
    const url = req.url ?? "";
    const query = url.indexOf("?");
    const cache = res.getHeader("X-Cache");
    log.info("request", {
      method: req.method,
      path: (query === -1 ? url : url.slice(0, query)).slice(0, 500),
      status: res.statusCode,
      durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      requestId: res.getHeader("X-Request-Id"),
      ...(cache ? { cache } : {}),
      ...(res.writableFinished ? {} : { aborted: true }),
    });
  });
}
