// `Me prévenir` (issue 30): the alerts' addresses, periods and copy, shared by the pages, the mails
// and the server. No zod here (offer pages import it; the form's schema is alert-form-schema.ts).

/** Where the offer page's form posts (never cached: page-cache.ts keeps GETs of pages only). */
export const ALERT_PATH = "/alertes";
export const ALERT_CONFIRM_PATH = "/alertes/confirmer";
export const ALERT_UNSUBSCRIBE_PATH = "/alertes/desinscription";
/** The links' query parameter: the token whose SHA-256 the alert keeps. */
export const ALERT_TOKEN_PARAM = "jeton";

/** An alert left unconfirmed is deleted after this many days (and its link stops working). */
export const UNCONFIRMED_ALERT_DAYS = 7;
/** A confirmed alert (waiting or done) is deleted this many months after its confirmation. */
export const CONFIRMED_ALERT_MONTHS = 6;

/** The `Me prévenir` line's privacy notice (one line, linking to the privacy page). */
export const ALERT_PRIVACY_NOTICE =
  "Votre adresse sert uniquement à vous prévenir une fois ; elle est effacée au plus tard 6 mois après la confirmation.";

/** A mailed link carrying a token (alerts', saved searches'). */
export function alertTokenLink(baseUrl: string, path: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}?${ALERT_TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

/** The confirmation link of the double opt-in mail (a page with a button: prefetchers confirm nothing). */
export function alertConfirmUrl(baseUrl: string, token: string): string {
  return alertTokenLink(baseUrl, ALERT_CONFIRM_PATH, token);
}

/** The unsubscribe link of every alert mail, also the List-Unsubscribe address (RFC 8058). */
export function alertUnsubscribeUrl(baseUrl: string, token: string): string {
  return alertTokenLink(baseUrl, ALERT_UNSUBSCRIBE_PATH, token);
}

/** The headers of one-click unsubscription (RFC 2369 and RFC 8058) for an alert mail. */
export function listUnsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** The page shown after a post of the form, by outcome (never says whether the address is known). */
export function alertSentPath(slug: string): string {
  return `${ALERT_PATH}?offre=${encodeURIComponent(slug)}&envoyee=1`;
}

export const ALERT_MESSAGES = {
  sent: {
    title: "Vérifiez votre boîte de réception",
    description:
      "Si l'adresse est valide, un e-mail vient de vous être envoyé avec un lien pour confirmer votre alerte. Sans confirmation sous 7 jours, l'adresse est effacée et vous ne recevrez rien.",
  },
  invalid: { title: "Adresse invalide", description: "Veuillez saisir une adresse e-mail valide." },
  available: {
    title: "Cette offre est disponible",
    description: "Elle peut être commandée dès maintenant : inutile de créer une alerte.",
  },
  missing: {
    title: "Offre non trouvée",
    description: "Cette offre n'existe pas ou n'est plus disponible.",
  },
  rateLimited: { title: "Trop de demandes" },
  failed: {
    title: "Erreur",
    description: "Votre alerte n'a pas pu être enregistrée. Veuillez réessayer dans un instant.",
  },
  invalidLink: {
    title: "Lien invalide ou expiré",
    description:
      "Ce lien ne correspond à aucune alerte : elle a été supprimée, elle n'a pas été confirmée dans les 7 jours, ou un e-mail plus récent contient le bon lien.",
  },
  confirmed: { title: "Alerte confirmée" },
  unsubscribed: {
    title: "Alerte supprimée",
    description:
      "Votre alerte et votre adresse sont effacées : vous ne recevrez plus aucun message à ce sujet.",
  },
} as const;

/** The confirmation page's sentence, by whether the offer is already back. */
export function confirmedDescription(offerTitle: string, available: boolean): string {
  return available
    ? `« ${offerTitle} » est déjà de nouveau disponible : un e-mail vous le confirme, et l'alerte est terminée.`
    : `Nous vous écrirons une seule fois, dès que « ${offerTitle} » sera de nouveau disponible.`;
}

/** '1 alerte en attente', '12 alertes en attente' (the admin's view of the demand). */
export function alertsWaitingLabel(count: number): string {
  return `${count} ${count > 1 ? "alertes" : "alerte"} en attente`;
}

/** The offer editor's line about the alerts waiting on the offer. */
export function alertsWaitingNote(count: number): string {
  if (count === 0) return "Aucune alerte « Me prévenir » en attente sur cette offre.";
  return `${alertsWaitingLabel(count)} (« Me prévenir ») : chacune recevra un e-mail, une seule fois, quand l'offre sera active et en stock (24 h ou 72 h).`;
}
