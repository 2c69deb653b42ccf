import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { Toaster } from "sonner";
import chromeScriptUrl from "~/client/chrome.js?url";
import { useInlineCss } from "~/lib/inline-css";
import { useNonce } from "~/lib/nonce";
import { themeStorageKey } from "~/lib/site";
import { themeBootScript } from "~/lib/theme";
import type { RootData } from "~/lib/use-site";
import { siteConfig } from "~/server/site.server";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";

// In production the stylesheet is inlined in <head> (see InlineCssContext): no render-blocking
// request before the first paint. Development keeps the file for hot reload.
export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  ...(import.meta.env.DEV ? [{ rel: "stylesheet", href: stylesheet }] : []),
];

const yearFormatter = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  year: "numeric",
});

export function loader(): RootData {
  return { site: siteConfig(), year: Number(yearFormatter.format(new Date())) };
}

/**
 * Route modules export `handle = { hydrate: false }` when every interaction works without React
 * (docs/decisions/002-hydration.md); `scripts` lists the small enhancement scripts such a page loads
 * (`import url from "~/client/x.js?url"`), after the site chrome's.
 */
export type RouteHandle = { hydrate?: boolean; scripts?: string[] };

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  const nonce = useNonce();
  const inlineCss = useInlineCss();
  const handles = matches.map((m) => m.handle as RouteHandle | undefined);
  const hydrate = !handles.some((h) => h?.hydrate === false);
  const pageScripts = handles.flatMap((h) => h?.scripts ?? []);
  const storageKey = themeStorageKey(data?.site ?? { slug: "serveurpro" });
  return (
    <html lang="fr" data-theme-key={storageKey} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* No first paint before the header is whole: a paint halfway through it would show its
            right-hand buttons moving as the rest arrives (a layout shift). */}
        <link rel="expect" href="#contenu" blocking="render" />
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: themeBootScript(storageKey) }}
        />
        {import.meta.env.DEV ? null : (
          <style
            nonce={nonce}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: inlineCss ?? "" }}
          />
        )}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <Toaster richColors closeButton position="top-right" />
        <script src={chromeScriptUrl} defer nonce={nonce} suppressHydrationWarning />
        {pageScripts.map((src) => (
          <script key={src} src={src} defer nonce={nonce} suppressHydrationWarning />
        ))}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
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
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const unavailable = isRouteErrorResponse(error) && error.status === 503;
  const title = notFound
    ? "Oops! Page not found"
    : unavailable
      ? "Service momentanément indisponible"
      : "Une erreur inattendue s'est produite";
  const detail = notFound
    ? null
    : unavailable
      ? "Nos serveurs ne répondent pas pour le moment. Veuillez réessayer dans quelques instants."
      : "Veuillez réessayer dans quelques instants. Si le problème persiste, contactez-nous.";
  return (
    <main className="container mx-auto flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
      <title>{`${title}`}</title>
      <h1 className="text-3xl font-bold">{title}</h1>
      {detail ? <p className="text-muted-foreground">{detail}</p> : null}
      <a href="/" className="text-primary underline underline-offset-4">
        Retour à l'accueil
      </a>
    </main>
  );
}
