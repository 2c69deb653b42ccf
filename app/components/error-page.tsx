import { isRouteErrorResponse } from "react-router";
import { RequestReference } from "~/hooks/request-id";

/** French titles for the statuses a visitor can meet; anything else reads as an unexpected error. */
const ERROR_PAGES: Record<number, { title: string; detail: string }> = {
  400: { title: "Requête invalide", detail: "Les données envoyées ne sont pas valides." },
  401: {
    title: "Connexion requise",
    detail: "Veuillez vous connecter pour effectuer cette action.",
  },
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

/** The French error page: status-specific title and text, and the request id to quote. */
export function ErrorPage({ error, inLayout = false }: { error: unknown; inLayout?: boolean }) {
  // Below the site layout the page already has its <main>.
  const Container = inLayout ? "div" : "main";
  const response = isRouteErrorResponse(error) ? error : undefined;
  const notFound = response?.status === 404;
  const page = response
    ? (ERROR_PAGES[response.status] ?? (response.status < 500 ? ERROR_PAGES[400] : UNEXPECTED))
    : UNEXPECTED;
  const title = notFound ? "Oops! Page not found" : page.title;
  const detail = notFound ? null : ((response && ownMessage(response.data)) ?? page.detail);
  return (
    <Container className="container mx-auto flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
      <title>{`${title}`}</title>
      <h1 className="text-3xl font-bold">{title}</h1>
      {detail ? <p className="text-muted-foreground">{detail}</p> : null}
      {notFound ? null : <RequestReference />}
      <a href="/" className="text-primary underline underline-offset-4">
        Retour à l'accueil
      </a>
    </Container>
  );
}
