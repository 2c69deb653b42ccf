// Admin actions (issue 4) in the same table shape. Cases marked `as: "admin"` are sent with a
// signed-in administrator's session cookie; the others with none or a forged one.
// By topic: admin-offer-cases.ts, admin-account-cases.ts, admin-desk-cases.ts.
import { urlencoded } from "../harness/http";
import { type Action, type HostileCase, type OrFn } from "./cases";
import {
  ADMIN_USER_CASES,
  AUTH_CASES,
  NEW_PASSWORD,
  PASSWORD_RESET_CASES,
  UNAUTHENTICATED_CASES,
} from "./admin-account-cases";
import {
  ADMIN_READ_CASES,
  CONTACT_STATUS_CASES,
  MAIL_RETRY_CASES,
  PERSONAL_DATA_CASES,
  QUOTE_SEND_CASES,
} from "./admin-desk-cases";
import { ADMIN_CREDENTIALS } from "./admin-forms";
import { OFFER, OFFER_CASES } from "./admin-offer-cases";

export const ADMIN_CASES: HostileCase[] = [
  ...OFFER_CASES,
  ...ADMIN_USER_CASES,
  ...CONTACT_STATUS_CASES,
  ...AUTH_CASES,
  ...PASSWORD_RESET_CASES,
  ...UNAUTHENTICATED_CASES,
  ...MAIL_RETRY_CASES,
  ...ADMIN_READ_CASES,
  ...PERSONAL_DATA_CASES,
  ...QUOTE_SEND_CASES,
];

const adminAction = (name: string, path: OrFn<string>, body: OrFn<string>): Action => ({
  name,
  path,
  as: "admin",
  body,
});

/** Every admin action, with a body it would accept from the site itself. */
export const ADMIN_ACTIONS: Action[] = [
  { name: "sign-in", path: "/auth", body: urlencoded(ADMIN_CREDENTIALS) },
  {
    name: "password reset request",
    path: "/auth/mot-de-passe-oublie",
    body: urlencoded({ email: ADMIN_CREDENTIALS.email }),
  },
  {
    name: "password reset",
    path: "/auth/nouveau-mot-de-passe",
    body: urlencoded({
      token: "A".repeat(43),
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    }),
  },
  adminAction("offer create", "/admin/offers/new", urlencoded(OFFER)),
  adminAction(
    "offer copy",
    (v) => `/admin/offers/new?from=${v.editableOfferId}`,
    urlencoded(OFFER),
  ),
  adminAction("offer update", (v) => `/admin/offers/${v.editableOfferId}`, urlencoded(OFFER)),
  adminAction("offer show/hide", "/admin/offers", (v) =>
    urlencoded({ intent: "toggle", id: String(v.editableOfferId), active: "0" }),
  ),
  adminAction("offer delete", "/admin/offers", (v) =>
    urlencoded({ intent: "delete", id: String(v.deletableOfferId) }),
  ),
  adminAction("contact status", "/admin/contacts", (v) =>
    urlencoded({ id: String(v.contactId), status: "cancelled" }),
  ),
  adminAction("mail retry", "/admin", urlencoded({ intent: "retry-mail", id: "1" })),
  // Issue 40: a message to the buyer, a stray message deleted.
  adminAction(
    "message to the buyer",
    (v) => `/admin/contacts/${v.contactId}`,
    (v) => urlencoded({ intent: "reply", subject: `Demande ${v.contactId}`, body: "Bonjour" }),
  ),
  adminAction(
    "stray message delete",
    "/admin/messages",
    urlencoded({ intent: "discard", id: "1", confirm: "yes" }),
  ),
  adminAction("follow-up cleared", "/admin/relances", (v) =>
    urlencoded({ intent: "follow-up", id: String(v.contactId), clear: "1", nextActionOn: "" }),
  ),
  adminAction(
    "reply template add",
    "/admin/modeles",
    urlencoded({ intent: "create", title: "Modèle forgé", body: "Bonjour {nom}" }),
  ),
  adminAction(
    "webhook add",
    "/admin/webhooks",
    urlencoded({ intent: "create", url: "https://93.184.216.34/hook", created: "on" }),
  ),
  // The address of the request that loadVars() creates.
  adminAction(
    "personal data erase",
    "/admin/personal-data",
    urlencoded({ intent: "erase", email: "existante@example.fr", confirm: "yes" }),
  ),
  adminAction(
    "administrator add",
    "/admin/users",
    urlencoded({
      intent: "add",
      email: "intrus@example.fr",
      password: "un mot de passe forgé",
    }),
  ),
  adminAction("administrator remove", "/admin/users", urlencoded({ intent: "remove", id: "1" })),
  adminAction(
    "password change",
    "/admin/account",
    urlencoded({
      currentPassword: ADMIN_CREDENTIALS.password,
      newPassword: "un mot de passe forgé",
      confirmPassword: "un mot de passe forgé",
    }),
  ),
  adminAction("datacenter add", "/admin/datacenters", urlencoded({ intent: "add", name: "Lyon" })),
  adminAction(
    "search synonyms add",
    "/admin/recherche",
    urlencoded({ intent: "add", phrases: "lyon = lugdunum" }),
  ),
  adminAction(
    "lease scale save",
    "/admin/lease",
    urlencoded({ c36: "0.03150", purchaseOptionPercent: "1.5" }),
  ),
  adminAction(
    "contact note",
    (v) => `/admin/contacts/${v.contactId}`,
    urlencoded({ intent: "note", body: "Note forgée" }),
  ),
  adminAction(
    "contact assign",
    (v) => `/admin/contacts/${v.contactId}`,
    urlencoded({ intent: "assign", owner: "1" }),
  ),
  adminAction("contact bulk", "/admin/contacts", (v) =>
    urlencoded({ intent: "bulk", bulk: "spam", ids: String(v.contactId) }),
  ),
  adminAction("webhook delete", "/admin/webhooks", urlencoded({ intent: "delete", id: "1" })),
  adminAction("session revoke", "/admin/account", urlencoded({ intent: "revoke", id: "1" })),
  adminAction("second factor enrol", "/admin/account/2fa", urlencoded({ code: "123456" })),
  adminAction(
    "identity confirmation",
    "/admin/confirm",
    urlencoded({ redirectTo: "/admin/contacts/export.csv", reauthPassword: "x" }),
  ),
  adminAction(
    "send quote",
    (v) => `/admin/contacts/${v.quoteContactId}/envoyer-devis`,
    urlencoded({ validity: "30", discount0: "0" }),
  ),
  adminAction("sign-out", "/admin/logout", ""),
];

export { ADMIN_CREDENTIALS };
