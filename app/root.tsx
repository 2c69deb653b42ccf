import "~/platform/zod-config";
import { currentParisYear } from "~/lib/dates";
import {
  data as withInit,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import chromeScriptUrl from "~/client/chrome.ts?script";
import { ErrorPage } from "~/components/error-page";
import { FlashToast } from "~/components/flash-toast";
import { useNonce } from "~/hooks/nonce";
import { pageHydrates } from "~/lib/hydration";
import { DEFAULT_SITE_SLUG, themeStorageKey } from "~/lib/site";
import { themeBootScript } from "~/platform/theme";
import type { RootData } from "~/hooks/use-root-data";
import { readFlash } from "~/platform/flash.server";
import { siteConfig } from "~/platform/site.server";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { cacheControl, pageHeaders } from "~/lib/http-headers";

// One stylesheet for every page: a fingerprinted file under /assets, cached immutable
// (docs/performance.md says why rather than inlined).
export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: stylesheet },
];

export function loader({ request }: Route.LoaderArgs) {
  // A flash message (e.g. 'Déconnexion réussie' after a redirect) is shown once, then cleared.
  const { toast, setCookie } = readFlash(request);
  const body: RootData = {
    site: siteConfig(),
    year: currentParisYear(),
    toast,
  };
  if (!setCookie) return body;
  return withInit(body, {
    headers: { "Set-Cookie": setCookie, ...cacheControl("private") },
  });
}

// A response that consumes a flash message is personal: the root loader marks it no-store, and
// routes without their own headers export inherit that. Error answers keep the hints they carry
// (Retry-After on 429 and 503, Allow on 405).
export const headers: Route.HeadersFunction = pageHeaders;

/**
 * Route modules export `handle = { hydrate: false }` when every interaction works without React
 * (docs/decisions/002-hydration.md); `scripts` lists the small enhancement scripts such a page loads
 * (`import src from "~/client/x.ts?script"`: bundled, minified, no React), after the site chrome's.
 */
export type RouteHandle = { hydrate?: boolean; scripts?: string[] };

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  const nonce = useNonce();
  const handles = matches.map((m) => m.handle as RouteHandle | undefined);
  const hydrate = pageHydrates(handles);
  const pageScripts = handles.flatMap((h) => h?.scripts ?? []);
  const storageKey = themeStorageKey(data?.site ?? { slug: DEFAULT_SITE_SLUG });
  return (
    <html lang="fr" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* No first paint before the header is whole: a paint halfway through it would show its
            right-hand buttons moving as the rest arrives (a layout shift). */}
        <link rel="expect" href="#contenu" blocking="render" />
        {/* Allowed by its hash (http-server/security-headers.ts): no nonce, so that a page
            that does not hydrate is the same bytes for everyone. */}
        <script dangerouslySetInnerHTML={{ __html: themeBootScript(storageKey) }} />
        <Meta />
        <Links />
      </head>
      <body>
        {/* The one toast (app/client/toast.ts), hydrated or not: no page hydrates for it. */}
        <FlashToast toast={data?.toast ?? null} />
        {children}
        <script src={chromeScriptUrl} defer />
        {pageScripts.map((src) => (
          <script key={src} src={src} defer />
        ))}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
