import { OFFER_TYPE_LABELS } from "~/lib/domain";
import {
  hasActiveFilters,
  MINIMUM_FILTERS,
  offerFiltersToSearch,
  parseOfferFilters,
  REFERENCE_FILTERS,
  type OfferFilters,
} from "~/lib/offer-filters";

// Saved searches (issue 42): `Me prévenir des nouvelles offres` on a filtered listing. Addresses,
// periods and copy shared by the listing, the pages, the mails and the server; the links reuse the
// stock alert's token parameter and pages (features/alerts/alert-link.tsx).

export const SAVED_SEARCH_PATH = "/recherches";
export const SAVED_SEARCH_CONFIRM_PATH = "/recherches/confirmer";
export const SAVED_SEARCH_UNSUBSCRIBE_PATH = "/recherches/desinscription";

/** A search left unconfirmed is deleted after this many days (its link stops working). */
export const UNCONFIRMED_SEARCH_DAYS = 7;
/** A confirmed search is deleted after this many months without a new matching offer. */
export const SEARCH_IDLE_MONTHS = 6;
/** At most one digest a day per address. */
export const SEARCH_DIGEST_HOURS = 24;

export const SAVED_SEARCH_PRIVACY_NOTICE =
  "Votre adresse sert uniquement à vous prévenir des nouvelles offres de cette recherche, au plus un e-mail par jour ; elle est effacée après 6 mois sans nouvelle offre.";

/**
 * The listing's filters as one saved search keeps them: the listing's canonical query string
 * without its order and page, or undefined when nothing is filtered (a search of everything).
 */
export function canonicalSearchQuery(params: URLSearchParams): string | undefined {
  const { filters } = parseOfferFilters(params);
  if (!hasActiveFilters(filters)) return undefined;
  return offerFiltersToSearch(filters);
}

/** A stored query's filters (the listing's own reader). */
export function savedSearchFilters(query: string): OfferFilters {
  return parseOfferFilters(new URLSearchParams(query)).filters;
}

/** The listing page of a saved search. */
export function savedSearchListingUrl(baseUrl: string, query: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/offers${query}`;
}

/** A saved search in words: `« epyc » · Serveurs dédiés · jusqu'à 300 € HT/mois`. */
export function describeSavedSearch(query: string): string {
  const filters = savedSearchFilters(query);
  const parts: string[] = [];
  if (filters.searchTerm) parts.push(`« ${filters.searchTerm} »`);
  if (filters.type) parts.push(OFFER_TYPE_LABELS[filters.type]);
  if (filters.minPrice !== undefined && filters.maxPrice !== undefined)
    parts.push(`de ${filters.minPrice} à ${filters.maxPrice} € HT/mois`);
  else if (filters.minPrice !== undefined) parts.push(`à partir de ${filters.minPrice} € HT/mois`);
  else if (filters.maxPrice !== undefined) parts.push(`jusqu'à ${filters.maxPrice} € HT/mois`);
  for (const { field, label } of MINIMUM_FILTERS) {
    const value = filters[field];
    if (value) parts.push(`${label.replace(/ \(.*\)$/, "")} ${value}`);
  }
  if (filters.commitment !== undefined)
    parts.push(filters.commitment ? "avec engagement" : "sans engagement");
  for (const { param, label } of REFERENCE_FILTERS) {
    const value = filters[param];
    if (value) parts.push(`${label} ${value}`);
  }
  if (filters.availableNow) parts.push("disponible maintenant");
  return parts.length > 0 ? parts.join(" · ") : "Toutes les offres";
}

export const SAVED_SEARCH_MESSAGES = {
  sent: "Vérifiez votre boîte de réception : si l'adresse est valide, un e-mail vient de vous être envoyé avec un lien pour confirmer votre recherche. Sans confirmation sous 7 jours, l'adresse est effacée.",
  invalid: "Veuillez saisir une adresse e-mail valide.",
  noFilter:
    "Choisissez d'abord une recherche ou un filtre : l'alerte porte sur les offres affichées.",
  rateLimited: "Plusieurs demandes ont été envoyées depuis votre connexion.",
  failed: "Votre recherche n'a pas pu être enregistrée. Veuillez réessayer dans un instant.",
  invalidLink: {
    title: "Lien invalide ou expiré",
    description:
      "Ce lien ne correspond à aucune recherche enregistrée : elle a été supprimée, elle n'a pas été confirmée dans les 7 jours, ou un e-mail plus récent contient le bon lien.",
  },
  confirmed: {
    title: "Recherche confirmée",
    description:
      "Nous vous écrirons quand une nouvelle offre correspondra à cette recherche, au plus une fois par jour.",
  },
  unsubscribed: {
    title: "Recherche supprimée",
    description:
      "Vos recherches enregistrées et votre adresse sont effacées : vous ne recevrez plus aucun message à leur sujet.",
  },
} as const;

/** '1 recherche', '3 recherches' (the admin's card). */
export function savedSearchCountLabel(count: number): string {
  return `${count} ${count > 1 ? "recherches" : "recherche"}`;
}
