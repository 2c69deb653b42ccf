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
import { useNonce } from "~/lib/nonce";
import { RequestReference } from "~/lib/request-id";
import { themeStorageKey } from "~/lib/site";
import { themeBootScript } from "~/lib/theme";
import type { RootData } from "~/lib/use-site";
import { siteConfig } from "~/server/site.server";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: stylesheet },
];

const yearFormatter = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  year: "numeric",
});

export function loader(): RootData {
  return { site: siteConfig(), year: Number(yearFormatter.format(new Date())) };
}

// Error answers keep the hints they carry (Retry-After on 429 and 503, Allow on 405).
export const headers: Route.HeadersFunction = ({ errorHeaders, loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  for (const name of ["Retry-After", "Allow"]) {
    const value = errorHeaders?.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};

/** Route modules export `handle = { hydrate: false }` when every interaction works without React. */
export type RouteHandle = { hydrate?: boolean };

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  const nonce = useNonce();
  const hydrate = !matches.some((m) => (m.handle as RouteHandle | undefined)?.hydrate === false);
  const storageKey = themeStorageKey(data?.site ?? { slug: "serveurpro" });
  return (
    <html lang="fr" data-theme-key={storageKey} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: themeBootScript(storageKey) }}
        />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <Toaster richColors closeButton position="top-right" />
        <script src={chromeScriptUrl} defer nonce={nonce} suppressHydrationWarning />
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

/** French titles for the statuses a visitor can meet; anything else reads as an unexpected error. */
const ERROR_PAGES: Record<number, { title: string; detail: string }> = {
  400: { title: "Requête invalide", detail: "Les données envoyées ne sont pas valides." },
  403: { title: "Accès refusé", detail: "Cette action n'est pas autorisée." },
  405: {
    title: "Méthode non autorisée",
    detail: "Cette adresse n'accepte pas ce type de requête.",
  },
  413: {
    title: "Requête trop volumineuse",
    detail: "Les données envoyées dépassent la taille maximale autorisée.",
  },
  415: {
    title: "Format non pris en charge",
    detail: "Le format des données envoyées n'est pas accepté.",
  },
  429: {
    title: "Trop de requêtes",
    detail: "Veuillez patienter quelques minutes avant de réessayer.",
  },
  503: {
    title: "Service momentanément indisponible",
    detail:
      "Nos serveurs ne répondent pas pour le moment. Veuillez réessayer dans quelques instants.",
  },
};
const UNEXPECTED = {
  title: "Une erreur inattendue s'est produite",
  detail:
    "Veuillez réessayer dans quelques instants. Si le problème persiste, contactez-nous en indiquant la référence ci-dessous.",
};

/** A message our own code put in a thrown data({ message }) (never React Router's internal text). */
function ownMessage(data: unknown): string | undefined {
  if (data && typeof data === "object") {
    const { message, error } = data as { message?: unknown; error?: unknown };
    if (typeof message === "string") return message;
    if (typeof error === "string") return error;
  }
  return undefined;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const response = isRouteErrorResponse(error) ? error : undefined;
  const notFound = response?.status === 404;
  const page = response
    ? (ERROR_PAGES[response.status] ??
      (response.status < 500 ? ERROR_PAGES[400] : UNEXPECTED))
    : UNEXPECTED;
  const title = notFound ? "Oops! Page not found" : page.title;
  const detail = notFound ? null : ((response && ownMessage(response.data)) ?? page.detail);
  return (
    <main className="container mx-auto flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
      <title>{`${title}`}</title>
      <h1 className="text-3xl font-bold">{title}</h1>
      {detail ? <p className="text-muted-foreground">{detail}</p> : null}
      {notFound ? null : <RequestReference />}
      <a href="/" className="text-primary underline underline-offset-4">
        Retour à l'accueil
      </a>
    </main>
  );
}
