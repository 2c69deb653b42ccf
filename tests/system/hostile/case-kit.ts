// What every hostile case is made of: the case's shape, the values known at run time, payloads,
// messages, and a post.
import { CONTACT_LIMITS } from "../../../app/lib/limits";
import type { Snapshot } from "./run";

/** Values known only once the database is up (ids of demo rows...), substituted into cases. */
export type Vars = {
  activeOfferId: number;
  inactiveOfferId: number;
  activeOfferSlug: string;
  inactiveOfferSlug: string;
  /** Rows created for the admin cases: a contact request and two offers to edit and delete. */
  contactId: number;
  editableOfferId: number;
  deletableOfferId: number;
  /** Issue 29: a request on an active offer to send a quote for, one on no offer, and an open sent quote's link token. */
  quoteContactId: number;
  noOfferContactId: number;
  quoteToken: string;
  /** Issue 42: `Ma demande`'s link token of the existing request. */
  requestToken: string;
};

export type OrFn<T> = T | ((v: Vars) => T);

/** A contact request row as the administrator will read it. */
export type ContactRow = {
  name: string;
  email: string;
  phone: string | null;
  message: string;
  offerId: number | null;
  status: string;
};

export type HostileCase = {
  name: string;
  method?: string;
  path: OrFn<string>;
  body?: OrFn<string | Buffer>;
  contentType?: string;
  headers?: [string, string][];
  chunked?: boolean;
  /** Sent with a signed-in administrator's session (admin actions). */
  as?: "visitor" | "admin";
  expect: {
    /** One status or the acceptable ones (a 5xx is never acceptable). */
    status: number | number[];
    /** French text the answer must show (HTML entities decoded). */
    message?: string | RegExp;
    /** The one contact request the case must add, exactly as typed. Otherwise nothing may change. */
    stored?: OrFn<ContactRow>;
    /** Any other expected change, checked on the database before and after (admin actions). */
    change?: (before: Snapshot, after: Snapshot, v: Vars) => void;
    /** Where a redirect must lead. */
    location?: RegExp;
  };
};

// Script and markup payloads: stored as typed, never echoed unescaped.
export const XSS_PAYLOADS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "<svg/onload=alert(1)>",
  "</textarea><script>alert(document.cookie)</script>",
  "javascript:alert(1)//<a href=x>",
  "<iframe src=javascript:alert(1)></iframe>",
];

export const M = {
  missing: "Veuillez remplir tous les champs obligatoires.",
  nameTooLong: `Le nom ne doit pas dépasser ${CONTACT_LIMITS.name} caractères.`,
  emailTooLong: `L'adresse e-mail ne doit pas dépasser ${CONTACT_LIMITS.email} caractères.`,
  phoneTooLong: `Le téléphone ne doit pas dépasser ${CONTACT_LIMITS.phone} caractères.`,
  messageTooLong: `Le message ne doit pas dépasser ${CONTACT_LIMITS.message} caractères.`,
  nameControl: "Le nom contient des caractères non autorisés.",
  emailControl: "L'adresse e-mail contient des caractères non autorisés.",
  messageControl: "Le message contient des caractères non autorisés.",
  emailInvalid: "Veuillez saisir une adresse e-mail valide.",
  phoneInvalid: "Le numéro de téléphone contient des caractères non valides.",
  offerInvalid: "L'offre sélectionnée n'est pas valide.",
  sent: "Message envoyé !",
  unsupportedType: "Format de requête non pris en charge",
  unreadable: "Le formulaire envoyé est illisible.",
  tooLarge: "Les données envoyées dépassent la taille maximale autorisée",
  compressed: "Les données compressées ne sont pas acceptées.",
  method: "Cette adresse n'accepte pas ce type de requête.",
  notFound: "Oops! Page not found",
  offerNotFound: "Cette offre n'existe pas ou n'est plus disponible.",
  configurationInvalid: "La configuration demandée n'est pas valide",
  badRequest: "Requête invalide.",
  headersTooLarge: "En-têtes de requête trop volumineux.",
} as const;

const FORM = "application/x-www-form-urlencoded";

/**
 * A form post, the shape of most cases: its name, where, what, and what must follow. Anything else
 * (`as`, `headers`, `chunked`, another method or content type) comes in `more`.
 */
export function post(
  name: string,
  path: OrFn<string>,
  body: OrFn<string | Buffer>,
  expect: HostileCase["expect"],
  more: Partial<HostileCase> = {},
): HostileCase {
  return { name, method: "POST", path, contentType: FORM, body, expect, ...more };
}

/** A state-changing action and a body it would accept from the site itself. */
export type Action = { name: string; path: OrFn<string>; body: OrFn<string>; as?: "admin" };
