import { ADMIN } from "./admin";
import { VALID_OFFER_FORM } from "./offers";
import { adminActionRoutes, fillPath } from "./route-table";

// The admin actions, for every suite that posts to them: the guard test (tests/integration/
// guard.test.ts, without a session), the role test, and the cross-site suite on the built server
// (tests/system/cross-site.test.ts). Which actions there are comes from app/routes.ts (a route under
// /admin whose module exports `action`), so a new one is posted to by all of them without being
// listed; ADMIN_ACTION_FORMS only adds forms the action would act on, where a route has them.

/** The rows the forms name; each suite makes its own before it posts. */
export type ActionIds = {
  offerId: number;
  contactId: number;
  /** The e-mail address of that contact request. */
  contactEmail: string;
  failedMailId: number;
  secondAdminId: number;
};

type OrFn<T> = T | ((ids: ActionIds) => T);

/** A form an admin action would act on given a valid session (`query`: its address's). */
export type ActionForm = {
  name: string;
  form: OrFn<Record<string, string>>;
  query?: OrFn<string>;
};

/**
 * Forms that would change something given a valid session, by route file. Optional: a route
 * without one is posted an empty form, and the guard test also posts every action a body that
 * fails when read (the guard must answer before the action reads anything).
 */
export const ADMIN_ACTION_FORMS: Record<string, ActionForm[]> = {
  "routes/admin/offer-new.tsx": [
    { name: "create offer", form: { ...VALID_OFFER_FORM, title: "Forged offer" } },
    {
      name: "duplicate offer",
      query: ({ offerId }) => `?from=${offerId}`,
      form: { ...VALID_OFFER_FORM, title: "Forged copy" },
    },
  ],
  "routes/admin/offer-edit.tsx": [
    { name: "update offer", form: { ...VALID_OFFER_FORM, title: "Hijacked" } },
  ],
  "routes/admin/offers.tsx": [
    {
      name: "show offer",
      form: ({ offerId }) => ({ intent: "toggle", id: String(offerId), active: "1" }),
    },
    { name: "delete offer", form: ({ offerId }) => ({ intent: "delete", id: String(offerId) }) },
  ],
  "routes/admin/users.tsx": [
    {
      name: "add administrator",
      form: { intent: "add", email: "intrus@example.fr", password: "un mot de passe forgé" },
    },
    {
      name: "remove administrator",
      form: ({ secondAdminId }) => ({ intent: "remove", id: String(secondAdminId) }),
    },
    {
      name: "change a role",
      form: ({ secondAdminId }) => ({ intent: "role", id: String(secondAdminId), role: "sales" }),
    },
  ],
  "routes/admin/account.tsx": [
    {
      name: "change password",
      form: {
        currentPassword: ADMIN.password,
        newPassword: "un mot de passe forgé",
        confirmPassword: "un mot de passe forgé",
      },
    },
    { name: "revoke a session", form: { intent: "revoke", id: "1" } },
  ],
  "routes/admin/two-factor.tsx": [{ name: "enrol a second factor", form: { code: "123456" } }],
  "routes/admin/confirm-identity.tsx": [
    {
      name: "confirm an identity",
      form: { redirectTo: "/admin/users", reauthPassword: ADMIN.password },
    },
  ],
  "routes/admin/contacts.tsx": [
    {
      name: "change status",
      form: ({ contactId }) => ({ id: String(contactId), status: "completed" }),
    },
    {
      name: "mark requests as spam",
      form: ({ contactId }) => ({ intent: "bulk", bulk: "spam", ids: String(contactId) }),
    },
  ],
  "routes/admin/contact-request.tsx": [
    { name: "add a note", form: { intent: "note", note: "Note forgée" } },
    { name: "assign the request", form: { intent: "assign", owner: "1" } },
    {
      name: "write to the buyer",
      form: { intent: "reply", subject: "Objet forgé", body: "Message forgé" },
    },
    { name: "set a follow-up", form: { intent: "follow-up", nextActionOn: "2099-01-01" } },
    // The LOA file after its documents (issue 41).
    { name: "send the file to the financer", form: { intent: "lease-hand-off", confirm: "yes" } },
    {
      name: "record the financer's answer",
      form: { intent: "financer-answer", answer: "approved", answeredOn: "2026-01-02" },
    },
    {
      name: "enter the delivered equipment",
      form: { intent: "delivery-items", label0: "Serveur forgé", serial0: "SN-FORGE" },
    },
  ],
  "routes/admin/follow-ups.tsx": [
    {
      name: "clear a follow-up",
      form: ({ contactId }) => ({
        intent: "follow-up",
        id: String(contactId),
        clear: "1",
        nextActionOn: "",
      }),
    },
  ],
  "routes/admin/unattached-messages.tsx": [
    { name: "discard a message", form: { intent: "discard", id: "1", confirm: "yes" } },
    { name: "attach a message", form: { intent: "attach", id: "1", reference: "DEM-2026-00001" } },
  ],
  "routes/admin/contact-quote.tsx": [
    { name: "send the quote", form: { validity: "30", discount0: "50" } },
  ],
  "routes/admin/reply-templates.tsx": [
    {
      name: "create a reply template",
      form: { intent: "create", title: "Modèle forgé", body: "Bonjour {nom}" },
    },
    {
      name: "change a reply template",
      form: { intent: "update", id: "1", title: "Modèle forgé", body: "Texte forgé" },
    },
    { name: "delete a reply template", form: { intent: "delete", id: "1", confirm: "yes" } },
  ],
  "routes/admin/personal-data.tsx": [
    {
      name: "erase personal data",
      form: ({ contactEmail }) => ({ intent: "erase", email: contactEmail, confirm: "yes" }),
    },
  ],
  "routes/admin/dashboard.tsx": [
    {
      name: "retry a failed mail",
      form: ({ failedMailId }) => ({ intent: "retry-mail", id: String(failedMailId) }),
    },
  ],
  "routes/admin/webhooks.tsx": [
    {
      name: "add a webhook",
      form: { intent: "create", url: "https://crm.example.fr/hook", events: "request.created" },
    },
    { name: "delete a webhook", form: { intent: "delete", id: "1" } },
  ],
  "routes/admin/datacenters.tsx": [
    { name: "add a datacenter", form: { intent: "add", name: "Datacenter forgé" } },
  ],
  "routes/admin/search-synonyms.tsx": [
    { name: "add search synonyms", form: { intent: "add", phrases: "forgé = contrefait" } },
  ],
  "routes/admin/lease.tsx": [
    { name: "change the lease scale", form: { c36: "0,03150", purchaseOptionPercent: "1,50" } },
    {
      name: "change the financer's address",
      form: { intent: "financer", financerName: "Forgé", financerEmail: "intrus@example.fr" },
    },
    {
      name: "add a document to the LOA file",
      form: { intent: "kind-add", title: "Pièce forgée", purpose: "Forgée" },
    },
    {
      name: "change a document of the LOA file",
      form: { intent: "kind-update", id: "1", title: "Pièce forgée", purpose: "Forgée" },
    },
    {
      name: "remove a document of the LOA file",
      form: { intent: "kind-remove", id: "1", confirm: "yes" },
    },
    {
      name: "move a document of the LOA file",
      form: { intent: "kind-move", id: "1", direction: "down" },
    },
  ],
};

/** The rows an address names, by URL pattern (`<pattern>:<param>`). */
const pathValues = ({ offerId, contactId }: ActionIds) => ({
  "/admin/offers/:id:id": String(offerId),
  "/admin/contacts/:id:id": String(contactId),
  "/admin/contacts/:id/envoyer-devis:id": String(contactId),
});

const resolve = <T>(value: OrFn<T>, ids: ActionIds): T =>
  typeof value === "function" ? (value as (ids: ActionIds) => T)(ids) : value;

/** One post to an admin action: what to call, where, with which form, given a suite's rows. */
export type AdminActionPost = {
  name: string;
  file: string;
  url: (ids: ActionIds) => string;
  params: (ids: ActionIds) => Record<string, string>;
  form: (ids: ActionIds) => Record<string, string>;
};

/** Every admin action of app/routes.ts, each with its forms (an empty one where it has none). */
export function adminActionPosts(): AdminActionPost[] {
  return adminActionRoutes().flatMap((route) => {
    const forms = ADMIN_ACTION_FORMS[route.file] ?? [
      { name: `${route.file} (empty form)`, form: {} },
    ];
    return forms.map(({ name, form, query }) => ({
      name,
      file: route.file,
      url: (ids) => `${fillPath(route, pathValues(ids)).url}${resolve(query ?? "", ids)}`,
      params: (ids) => fillPath(route, pathValues(ids)).params,
      form: (ids) => resolve(form, ids),
    }));
  });
}
