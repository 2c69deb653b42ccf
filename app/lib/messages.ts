// Spec section 8: user-facing messages, word for word.
export const MESSAGES = {
  listingError: "Erreur lors du chargement des offres. Veuillez réessayer.",
  listingEmpty: "Aucune offre ne correspond à vos critères de recherche.",
  offerNotFound: {
    title: "Offre non trouvée",
    description: "Cette offre n'existe pas ou n'est plus disponible.",
  },
  contactMissing: {
    title: "Champs manquants",
    description: "Veuillez remplir tous les champs obligatoires.",
  },
  contactExpired: {
    title: "Formulaire invalide",
    description: "Ce formulaire n'est plus valide : rechargez la page puis renvoyez votre message.",
  },
  contactSent: {
    title: "Message envoyé !",
    description: "Nous vous répondrons dans les plus brefs délais.",
  },
  contactFailed: {
    title: "Erreur",
    description:
      "Une erreur est survenue lors de l'envoi du message. Votre saisie est conservée : veuillez réessayer dans quelques instants.",
  },
  notFound: "Oops! Page not found",
} as const;

/** A title and a sentence for an error page. */
export type ErrorCopy = { title: string; detail: string };

/**
 * The copy of every error page, in one place: the public error boundary
 * (components/error-page.tsx), the admin area's (routes/admin/layout.tsx), the database-outage
 * answers (platform/availability.server.ts) and the plain pages the HTTP layer sends before React
 * Router runs (http-server/error-page.ts).
 */
export const ERROR_MESSAGES = {
  badRequest: { title: "Requête invalide", detail: "Les données envoyées ne sont pas valides." },
  unauthorized: {
    title: "Connexion requise",
    detail: "Veuillez vous connecter pour effectuer cette action.",
  },
  forbidden: { title: "Accès refusé", detail: "Cette action n'est pas autorisée." },
  /** A post sent by another site's page (http-server/cross-site.ts). */
  crossSite: { title: "Accès refusé", detail: "Requête refusée : origine non autorisée." },
  methodNotAllowed: {
    title: "Méthode non autorisée",
    detail: "Cette adresse n'accepte pas ce type de requête.",
  },
  tooLarge: {
    title: "Requête trop volumineuse",
    detail: "Les données envoyées dépassent la taille maximale autorisée.",
  },
  /** The same, with the limit, when the HTTP layer refuses the body (http-server/request-body.ts). */
  tooLargeLimit: (kilobytes: number): ErrorCopy => ({
    title: "Requête trop volumineuse",
    detail: `Les données envoyées dépassent la taille maximale autorisée (${kilobytes} Ko).`,
  }),
  unsupportedType: {
    title: "Format non pris en charge",
    detail: "Le format des données envoyées n'est pas accepté.",
  },
  compressed: {
    title: "Format non pris en charge",
    detail: "Les données compressées ne sont pas acceptées.",
  },
  tooManyRequests: {
    title: "Trop de requêtes",
    detail: "Veuillez patienter quelques minutes avant de réessayer.",
  },
  /** Too many page renders from one client (http-server/render-limit.ts). */
  renderLimited: {
    title: "Trop de requêtes",
    detail:
      "Vous avez demandé beaucoup de pages en peu de temps. Veuillez patienter quelques secondes avant de réessayer.",
  },
  /** Too many quote PDFs from one client, or too many being made (routes/resources/offer-quote). */
  quoteLimited:
    "Vous avez demandé beaucoup de devis en peu de temps. Veuillez patienter quelques secondes avant de réessayer.",
  quoteBusy:
    "Beaucoup de devis sont en cours de préparation. Veuillez réessayer dans quelques secondes.",
  unavailable: {
    title: "Service momentanément indisponible",
    detail:
      "Nos serveurs ne répondent pas pour le moment. Veuillez réessayer dans quelques instants.",
  },
  unexpected: {
    title: "Une erreur inattendue s'est produite",
    detail:
      "Veuillez réessayer dans quelques instants. Si le problème persiste, contactez-nous en indiquant la référence ci-dessous.",
  },
  /** The admin area says it in its own words (routes/admin/layout.tsx). */
  admin: {
    sessionExpired: "Session expirée",
    forbidden: "Accès refusé",
    notFound: { title: "Introuvable", detail: "Cette page n'existe pas." },
    unexpectedDetail: "Veuillez réessayer dans quelques instants.",
  },
  /** Plain-text answers to requests Node's HTTP parser refuses (http-server/http.ts). */
  clientError: {
    headersTooLarge: "En-têtes de requête trop volumineux.",
    timeout: "Délai de requête dépassé.",
    malformed: "Requête invalide.",
  },
  requestReference: "Référence de la requête",
  backHome: "Retour à l'accueil",
} as const;

/** The public error page's copy for an HTTP status a visitor can meet. */
export function errorCopy(status: number | undefined): ErrorCopy {
  const byStatus: Record<number, ErrorCopy> = {
    400: ERROR_MESSAGES.badRequest,
    401: ERROR_MESSAGES.unauthorized,
    403: ERROR_MESSAGES.forbidden,
    405: ERROR_MESSAGES.methodNotAllowed,
    413: ERROR_MESSAGES.tooLarge,
    415: ERROR_MESSAGES.unsupportedType,
    429: ERROR_MESSAGES.tooManyRequests,
    503: ERROR_MESSAGES.unavailable,
  };
  if (status === undefined) return ERROR_MESSAGES.unexpected;
  return byStatus[status] ?? (status < 500 ? ERROR_MESSAGES.badRequest : ERROR_MESSAGES.unexpected);
}

/** 'Veuillez réessayer dans 3 minutes.': a wait given in seconds, rounded up to whole minutes. */
export function retryInMinutes(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Veuillez réessayer dans ${minutes} minute${minutes > 1 ? "s" : ""}.`;
}
