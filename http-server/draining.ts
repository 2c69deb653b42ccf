import type { Server, ServerResponse } from "node:http";

/**
 * The HTTP side of a graceful stop (issue 31, docs/production.md "Rolling restarts"). Once
 * draining: /healthz answers 503, and every answer closes its connection (`Connection: close`,
 * sent before the headers go out), so that a proxy never sends another request on a connection
 * this instance is about to close: it opens one to the other instance instead. Node's
 * `server.close()` alone answers in-flight requests as kept alive and then waits for those
 * connections' keep-alive timeout (65 s).
 */

let draining = false;
/** Answers begun and not finished: told to close their connection when draining starts. */
const inFlight = new Set<ServerResponse>();
let onIdle: (() => void) | undefined;

/** Whether the instance is stopping (readiness: /healthz answers 503). */
export function isDraining(): boolean {
  return draining;
}

/** Called first for each request, by both entries of http-server/http.ts (a response counts once). */
export function watchResponse(res: ServerResponse): void {
  if (draining) {
    if (!res.headersSent) res.setHeader("Connection", "close");
    return;
  }
  if (inFlight.has(res)) return;
  inFlight.add(res);
  res.once("close", () => {
    inFlight.delete(res);
    if (draining && inFlight.size === 0) onIdle?.();
  });
}

/**
 * Starts draining `server`: readiness turns 503, it stops accepting connections (Node also closes
 * the idle kept-alive ones), the answers in flight close their connections when done. `closed`
 * runs once every connection is gone. Answers whose headers were already sent as kept alive (a
 * streamed body) leave an idle connection behind: closed as soon as nothing is in flight.
 */
export function beginDraining(server: Server | undefined, closed: () => void): void {
  draining = true;
  for (const res of inFlight) {
    if (!res.headersSent) res.setHeader("Connection", "close");
  }
  if (!server) return;
  onIdle = () => server.closeIdleConnections();
  server.close(() => closed());
  if (inFlight.size === 0) onIdle();
}
