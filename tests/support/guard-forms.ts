import { ADMIN } from "./admin";
import { VALID_OFFER_FORM } from "./offers";

/** A form an admin action would act on given a valid session (`query`: its address's). */
export type ForgedForm = { name: string; form: Record<string, string>; query?: string };

/** The rows the forms name, made by the guard test before it runs them. */
export type GuardIds = {
  offerId: number;
  contactId: number;
  failedMailId: number;
  secondAdminId: number;
};

/**
 * Forms that would change something given a valid session, for each admin action of
 * app/routes.ts by its file (tests/integration/guard.test.ts posts each without one).
 */
export function forgedActionForms({
  offerId,
  contactId,
  failedMailId,
  secondAdminId,
}: GuardIds): Record<string, ForgedForm[]> {
  return {
    "routes/admin/offer-new.tsx": [
      { name: "create offer", form: { ...VALID_OFFER_FORM, title: "Forged offer" } },
      {
        name: "duplicate offer",
        query: `?from=${offerId}`,
        form: { ...VALID_OFFER_FORM, title: "Forged copy" },
      },
    ],
    "routes/admin/offer-edit.tsx": [
      { name: "update offer", form: { ...VALID_OFFER_FORM, title: "Hijacked" } },
    ],
    "routes/admin/offers.tsx": [
      { name: "show offer", form: { intent: "toggle", id: String(offerId), active: "1" } },
      { name: "delete offer", form: { intent: "delete", id: String(offerId) } },
    ],
    "routes/admin/users.tsx": [
      {
        name: "add administrator",
        form: { intent: "add", email: "intrus@example.fr", password: "un mot de passe forgé" },
      },
      { name: "remove administrator", form: { intent: "remove", id: String(secondAdminId) } },
      {
        name: "change a role",
        form: { intent: "role", id: String(secondAdminId), role: "sales" },
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
    ],
    "routes/admin/two-factor.tsx": [{ name: "enrol a second factor", form: { code: "123456" } }],
    "routes/admin/confirm-identity.tsx": [
      {
        name: "confirm an identity",
        form: { redirectTo: "/admin/users", reauthPassword: ADMIN.password },
      },
    ],
    "routes/admin/contacts.tsx": [
      { name: "change status", form: { id: String(contactId), status: "completed" } },
    ],
    "routes/admin/contact-request.tsx": [
      { name: "add a note", form: { intent: "note", note: "Note forgée" } },
      {
        name: "write to the buyer",
        form: { intent: "reply", subject: "Objet forgé", body: "Message forgé" },
      },
      {
        name: "set a follow-up",
        form: { intent: "follow-up", nextActionOn: "2099-01-01" },
      },
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
        form: { intent: "follow-up", id: String(contactId), clear: "1", nextActionOn: "" },
      },
    ],
    "routes/admin/unattached-messages.tsx": [
      { name: "discard a message", form: { intent: "discard", id: "1", confirm: "yes" } },
      {
        name: "attach a message",
        form: { intent: "attach", id: "1", reference: "DEM-2026-00001" },
      },
    ],
    "routes/admin/contact-quote.tsx": [
      { name: "send the quote", form: { validity: "30", discount0: "50" } },
    ],
    "routes/admin/reply-templates.tsx": [
      {
        name: "create a reply template",
        form: { intent: "create", title: "Modèle forgé", body: "Texte forgé" },
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
        form: { intent: "erase", email: "jeanne@example.fr", confirm: "yes" },
      },
    ],
    "routes/admin/dashboard.tsx": [
      { name: "retry a failed mail", form: { intent: "retry-mail", id: String(failedMailId) } },
    ],
    "routes/admin/webhooks.tsx": [
      {
        name: "add a webhook",
        form: { intent: "create", url: "https://crm.example.fr/hook", events: "request.created" },
      },
    ],
    "routes/admin/datacenters.tsx": [
      { name: "add a datacenter", form: { intent: "add", name: "Datacenter forgé" } },
    ],
    "routes/admin/search-synonyms.tsx": [
      { name: "add search synonyms", form: { intent: "add", phrases: "forgé = contrefait" } },
    ],
    "routes/admin/lease.tsx": [
      { name: "change the lease scale", form: { c36: "0,5", purchaseOptionPercent: "50" } },
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
}
