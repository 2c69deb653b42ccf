import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import {
  ServerRouter,
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
} from "react-router";
import { NonceContext } from "~/hooks/nonce";
import { pageHydrates } from "~/lib/hydration";
import { RequestIdContext } from "~/hooks/request-id";
import { log } from "~/platform/log.server";
import { warmQuoteFonts } from "~/features/quotes/quote-pdf.server";

export const streamTimeout = 5_000;

// The quote PDF's fonts take 200-400 ms to open: opened once, a moment after start, in the
// background, rather than by the first visitor who asks for a quote (decision 031).
if (process.env.NODE_ENV === "production") setTimeout(warmQuoteFonts, 2_000).unref();

/**
 * Every page, the same way: React Router's document rendered whole (onAllReady), then sent in one
 * write with its length (http-server/fetch-adapter.ts). Only a page that hydrates gets the CSP
 * nonce, for React Router's inline scripts (root.tsx): one that does not has none in its HTML,
 * so the page cache can keep its bytes (http-server/page-cache.ts).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { matches } = routerContext.staticHandlerContext;
  const handles = matches.map((match) => routerContext.routeModules[match.route.id]?.handle);
  const nonce = pageHydrates(handles) ? loadContext.cspNonce : undefined;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RequestIdContext.Provider value={loadContext.requestId}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </RequestIdContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          // The page is whole by now: collected into one buffer, then sent at once.
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              const html = Buffer.concat(chunks);
              responseHeaders.set("Content-Length", String(html.length));
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          pipe(body);
        },
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          log.error("render error", { requestId: loadContext.requestId, error });
        },
      },
    );
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const fields = {
    requestId: (context as AppLoadContext | undefined)?.requestId,
    method: request.method,
    path: new URL(request.url).pathname.slice(0, 500),
  };
  // A refused request (405 on a page without an action, bad method...) is not a server fault.
  if (isRouteErrorResponse(error) && error.status < 500) {
    log.info("request refused", { ...fields, status: error.status });
    return;
  }
  log.error("request error", { ...fields, error });
};
