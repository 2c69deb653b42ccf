import { Writable } from "node:stream";
import { renderToPipeableStream, renderToStaticMarkup } from "react-dom/server";
import {
  ServerRouter,
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
} from "react-router";
import { InlineCssContext } from "~/hooks/inline-css";
import { KeptHtmlContext } from "~/hooks/kept-html";
import { NonceContext } from "~/hooks/nonce";
import type { RootData } from "~/hooks/use-root-data";
import { pageHydrates } from "~/lib/hydration";
import { RequestIdContext } from "~/hooks/request-id";
import { log } from "~/platform/log.server";
import { keptHtml } from "~/platform/kept-html.server";
import { cssBytesForPage } from "~/platform/page-css.server";
import { warmQuoteFonts } from "~/features/quotes/quote-pdf.server";
import appCss from "./app.css?inline";
import publicCss from "./public.css?inline";

export const streamTimeout = 5_000;

/** Where a public page's stylesheet goes, once the page is whole (cssForPage). */
const PAGE_CSS_MARK = "/*page-css*/";
const DOCTYPE = Buffer.from("<!DOCTYPE html>");

// The quote PDF's fonts take 200-400 ms to open: opened once, a moment after start, in the
// background, rather than by the first visitor who asks for a quote (decision 031).
if (process.env.NODE_ENV === "production") setTimeout(warmQuoteFonts, 2_000).unref();

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
  // The nonce only for pages that hydrate, where React Router's scripts carry per-request data:
  // a page without hydration has no nonce anywhere in its HTML, so the page cache can keep its
  // bytes as they are (http-server/security-headers.ts allows its inline script by hash).
  const { matches, loaderData } = routerContext.staticHandlerContext;
  const handles = matches.map((match) => routerContext.routeModules[match.route.id]?.handle);
  const toast = (loaderData.root as Partial<RootData> | undefined)?.toast;
  const hydrates = pageHydrates(handles, Boolean(toast));
  const nonce = hydrates ? loadContext.cspNonce : undefined;
  // Public pages inline only the styles they use: app/public.css (public routes and components),
  // cut to the utilities in the page's HTML (app/platform/page-css.server.ts) unless the page
  // hydrates (React may then render other pages in it). The administration, the sign-in pages
  // included, the whole stylesheet.
  const isPublic = matches.some((match) => match.route.id.startsWith("routes/public/"));
  const cutCss = isPublic && !hydrates;
  const css = cutCss ? PAGE_CSS_MARK : isPublic ? publicCss : appCss;
  // The same pages reuse the HTML of their kept parts (app/hooks/kept-html.tsx): nothing hydrates it.
  const kept = cutCss ? keptHtml() : undefined;

  const page = (context: EntryContext) => (
    <NonceContext.Provider value={nonce}>
      <RequestIdContext.Provider value={loadContext.requestId}>
        <InlineCssContext.Provider value={css}>
          <KeptHtmlContext.Provider value={kept?.keep}>
            <ServerRouter context={context} url={request.url} nonce={nonce} />
          </KeptHtmlContext.Provider>
        </InlineCssContext.Provider>
      </RequestIdContext.Provider>
    </NonceContext.Provider>
  );
  // A length: the HTTP server sends the page in one write (http-server/fetch-adapter.ts).
  const send = (html: Uint8Array<ArrayBuffer>) => {
    responseHeaders.set("Content-Length", String(html.length));
    return new Response(html, { headers: responseHeaders, status: responseStatusCode });
  };
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");

  if (kept) {
    // A page that never hydrates has no use for its loader data in the HTML (React Router's
    // stream of it, rendered in a Suspense boundary): without it, nothing suspends, and the page
    // renders in one synchronous pass to a string, without the stream's machinery (issue 31).
    void routerContext.serverHandoffStream?.cancel().catch(() => undefined);
    const rendered = renderToStaticMarkup(page(staticRender(routerContext)));
    const spliced = kept.splice(rendered);
    const css = cssBytesForPage(publicCss, rendered, spliced.parts);
    // Bytes, not a string: the Fetch API would scan a string body for lone surrogates first. Only
    // the page's own HTML is encoded here: the stylesheet and the kept parts were, once.
    return send(spliced.bytes(DOCTYPE, PAGE_CSS_MARK, css));
  }

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );
    // Pages are small and fully server-rendered: wait for everything, then send one complete document.
    const { pipe, abort } = renderToPipeableStream(page(routerContext), {
      nonce,
      onAllReady() {
        // Pages are whole by now: collected into one buffer, then sent at once (no web stream
        // between React's many small writes and the socket).
        const chunks: Buffer[] = [];
        const body = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            chunks.push(chunk);
            callback();
          },
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            resolve(send(Buffer.concat(chunks)));
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
    });
  });
}

/**
 * What a page that never hydrates needs of React Router's context: no stream of its loader data,
 * and the manifest of the matched routes alone. ServerRouter turns the whole manifest into route
 * objects on every render, twice (about a tenth of an uncached render's time with 49 routes); a
 * page without client navigation never looks past its own matches.
 */
function staticRender(context: EntryContext): EntryContext {
  const matched = new Set(context.staticHandlerContext.matches.map((match) => match.route.id));
  const routes = Object.fromEntries(
    Object.entries(context.manifest.routes).filter(([id]) => matched.has(id)),
  );
  return {
    ...context,
    manifest: { ...context.manifest, routes },
    serverHandoffStream: undefined,
  };
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
