import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ROLES, type Role } from "../../app/features/accounts/roles";
import { hashPassword } from "../../app/features/accounts/password.server";
import { mailOutbox, offers, users } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { adminRoutes, fillPath, type AdminRoute } from "../support/admin-routes";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { insertRequest } from "../support/contacts";
import { buildOffer, VALID_OFFER_FORM } from "../support/offers";

// The role table of issue 20, route by route: every admin route of app/routes.ts is called as each
// role, its loader and its action. A route missing from EXPECTED fails the first test.

const { database, sessionCookieFor, snapshotFingerprint } = useAdminSuite();

const ALL = ROLES;
const ADMIN_ONLY = ["admin"] as const;
const OFFERS = ["admin", "catalogue"] as const;
const CONTACTS = ["admin", "sales"] as const;

type Access = { loader?: readonly Role[]; action?: readonly Role[] };

/** Who may call what: the table, written independently of app/lib/roles.ts. */
const EXPECTED: Record<string, Access> = {
  "routes/resources/admin-contacts-export[.]csv.ts": { loader: ADMIN_ONLY },
  "routes/resources/admin-personal-data-export.ts": { loader: ADMIN_ONLY },
  "routes/admin/logout.tsx": { loader: ALL, action: ALL },
  "routes/admin/layout.tsx": { loader: ALL },
  // Others land on /admin after signing in and are sent on to their part.
  "routes/admin/dashboard.tsx": { loader: ALL, action: ADMIN_ONLY },
  "routes/admin/offers.tsx": { loader: OFFERS, action: OFFERS },
  "routes/admin/offer-new.tsx": { loader: OFFERS, action: OFFERS },
  "routes/admin/offer-edit.tsx": { loader: OFFERS, action: OFFERS },
  "routes/admin/datacenters.tsx": { loader: OFFERS, action: OFFERS },
  "routes/admin/search-synonyms.tsx": { loader: OFFERS, action: OFFERS },
  "routes/admin/lease.tsx": { loader: OFFERS, action: OFFERS },
  "routes/admin/contacts.tsx": { loader: CONTACTS, action: CONTACTS },
  "routes/admin/contact-request.tsx": { loader: CONTACTS, action: CONTACTS },
  // `Envoyer le devis` (issue 29): whoever handles the requests.
  "routes/admin/contact-quote.tsx": { loader: CONTACTS, action: CONTACTS },
  // `Non rattachés` (issue 40): messages read from the mailbox, the sales team's.
  "routes/admin/unattached-messages.tsx": { loader: CONTACTS, action: CONTACTS },
  // `Modèles de réponse` (issue 40): the texts the sales team starts its messages from.
  "routes/admin/reply-templates.tsx": { loader: CONTACTS, action: CONTACTS },
  "routes/admin/follow-ups.tsx": { loader: CONTACTS, action: CONTACTS },
  "routes/admin/personal-data.tsx": { loader: ADMIN_ONLY, action: ADMIN_ONLY },
  "routes/admin/users.tsx": { loader: ADMIN_ONLY, action: ADMIN_ONLY },
  "routes/admin/account.tsx": { loader: ALL, action: ALL },
  "routes/admin/two-factor.tsx": { loader: ALL, action: ALL },
  "routes/admin/confirm-identity.tsx": { loader: ALL, action: ALL },
  "routes/admin/journal.tsx": { loader: ADMIN_ONLY },
  "routes/admin/webhooks.tsx": { loader: ADMIN_ONLY, action: ADMIN_ONLY },
  "routes/resources/admin-journal-export[.]csv.ts": { loader: ADMIN_ONLY },
  "routes/resources/admin-contact-quote[.]pdf.ts": { loader: CONTACTS },
  // Kept past an erasure, handed over from the personal data page (Administrateur); a request's
  // own signed documents (its delivery report, issue 41) to whoever handles the requests.
  "routes/resources/admin-signed-document-pdf.ts": { loader: CONTACTS },
  // An incoming message's own layout and files (issue 40): the request's people.
  "routes/resources/admin-message-html.ts": { loader: CONTACTS },
  "routes/resources/admin-message-attachment.ts": { loader: CONTACTS },
  "routes/resources/admin-lease-document.ts": { loader: CONTACTS },
  // The LOA file's archive for the financer (issue 41).
  "routes/resources/admin-lease-archive[.]zip.ts": { loader: CONTACTS },
};

const PASSWORD = "un mot de passe de test assez long";
let passwordHash: string;
const ids: Record<string, string> = {};
const accounts = {} as Record<Role, number>;

/** A form each action would act on with the right role (query strings for the loaders). */
function forms(): Record<string, { query?: string; form?: Record<string, string> }> {
  return {
    "routes/resources/admin-contacts-export[.]csv.ts": { query: "?status=pending" },
    "routes/resources/admin-personal-data-export.ts": { query: "?email=jeanne@example.fr" },
    "routes/admin/logout.tsx": { form: {} },
    "routes/admin/dashboard.tsx": { form: { intent: "retry-mail", id: ids.mail } },
    "routes/admin/offers.tsx": { form: { intent: "delete", id: ids.offer } },
    "routes/admin/offer-new.tsx": { form: { ...VALID_OFFER_FORM, title: "Offre du rôle" } },
    "routes/admin/offer-edit.tsx": { form: { ...VALID_OFFER_FORM, title: "Modifiée" } },
    "routes/admin/datacenters.tsx": { form: { intent: "add", name: "Datacenter du rôle" } },
    "routes/admin/search-synonyms.tsx": { form: { intent: "add", phrases: "rôle = role" } },
    "routes/admin/lease.tsx": { form: { c36: "0,03150", purchaseOptionPercent: "1,50" } },
    "routes/admin/contacts.tsx": { form: { id: ids.contact, status: "completed" } },
    "routes/admin/contact-request.tsx": { form: { intent: "note", note: "Note du rôle" } },
    "routes/admin/contact-quote.tsx": { form: { validity: "30", discount0: "0" } },
    "routes/admin/unattached-messages.tsx": {
      form: { intent: "discard", id: "999999", confirm: "yes" },
    },
    "routes/admin/reply-templates.tsx": {
      form: { intent: "create", title: "Modèle du rôle", body: "Bonjour {nom}" },
    },
    "routes/admin/follow-ups.tsx": {
      form: { intent: "follow-up", id: ids.contact, clear: "1", nextActionOn: "" },
    },
    "routes/admin/personal-data.tsx": {
      query: "?email=jeanne@example.fr",
      form: { intent: "erase", email: "jeanne@example.fr", confirm: "yes" },
    },
    "routes/admin/users.tsx": { form: { intent: "remove", id: ids.target } },
    "routes/admin/webhooks.tsx": { form: { intent: "delete", id: "999999" } },
    "routes/admin/two-factor.tsx": { form: { code: "000000" } },
    "routes/admin/confirm-identity.tsx": {
      query: "?redirectTo=%2Fadmin%2Faccount",
      form: { redirectTo: "/admin/account", reauthPassword: PASSWORD },
    },
    "routes/admin/account.tsx": {
      form: {
        currentPassword: PASSWORD,
        newPassword: "un nouveau mot de passe du rôle",
        confirmPassword: "un nouveau mot de passe du rôle",
      },
    },
  };
}

async function cookieAs(role: Role) {
  return sessionCookieFor(accounts[role]);
}

function target(route: AdminRoute, query = "") {
  const { url, params } = fillPath(route, {
    "/admin/offers/:id:id": ids.offer,
    "/admin/contacts/:id:id": ids.contact,
    "/admin/contacts/:id/devis.pdf:id": ids.contact,
    "/admin/contacts/:id/envoyer-devis:id": ids.contact,
    "/admin/signed-documents/:id/pdf:id": "1",
    messageId: "1",
    attachmentId: "1",
    "/admin/contacts/:id/documents/:documentId:id": ids.contact,
    documentId: "1",
    "/admin/contacts/:id/dossier.zip:id": ids.contact,
  });
  return { url: `${url}${query}`, params };
}

describe(`roles on every admin route (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    passwordHash = await hashPassword(PASSWORD);
  });

  beforeEach(async () => {
    // One account per role, and another one to act on (one statement: this runs before each case).
    const rows = await database.db
      .insert(users)
      .values([
        ...ROLES.map((role) => ({ email: `${role}@example.fr`, passwordHash, role })),
        { email: "target@example.fr", passwordHash, role: "sales" as const },
      ])
      .returning({ id: users.id, email: users.email });
    const idOf = (email: string) => rows.find((row) => row.email === email)!.id;
    for (const role of ROLES) accounts[role] = idOf(`${role}@example.fr`);
    ids.target = String(idOf("target@example.fr"));
    const [offer] = await database.db.insert(offers).values(buildOffer(1)).returning();
    ids.offer = String(offer.id);
    ids.contact = String(
      await insertRequest(database.db, { name: "Jeanne", email: "jeanne@example.fr", mails: 1 }),
    );
    const [mail] = await database.db
      .update(mailOutbox)
      .set({ status: "failed", lastError: "550 refusé" })
      .returning({ id: mailOutbox.id });
    ids.mail = String(mail.id);
  });

  it("knows every admin route of app/routes.ts, its loader and its action", () => {
    const routes = adminRoutes();
    expect(routes.map((r) => r.file).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const route of routes) {
      const expected = EXPECTED[route.file];
      expect(Boolean(route.module.loader), `${route.file} loader`).toBe(Boolean(expected.loader));
      expect(Boolean(route.module.action), `${route.file} action`).toBe(Boolean(expected.action));
      expect(forms()[route.file] ?? {}, route.file).toBeDefined();
      if (expected.action) expect(forms()[route.file]?.form, route.file).toBeDefined();
    }
  });

  for (const route of adminRoutes()) {
    const expected = EXPECTED[route.file] ?? {};
    for (const role of ROLES) {
      if (route.module.loader) {
        const allowed = expected.loader?.includes(role) ?? false;
        it(`${route.file} loader: ${role} is ${allowed ? "served" : "refused (403)"}`, async () => {
          const cookie = await cookieAs(role);
          const { url, params } = target(route, forms()[route.file]?.query);
          // Only a refusal is compared with what was there before.
          const before = allowed ? undefined : await snapshotFingerprint();
          const outcome = await call(
            route.module.loader!,
            makeRequest(url, { cookie }),
            undefined,
            params,
          );
          if (allowed) {
            expect([401, 403]).not.toContain(outcome.status);
            expect(outcome.location ?? "").not.toMatch(/^\/auth/);
          } else {
            expect(outcome.status).toBe(403);
            expect(JSON.stringify(outcome.data)).not.toContain("jeanne");
            expect(await snapshotFingerprint()).toEqual(before);
          }
        });
      }
      if (route.module.action) {
        const allowed = expected.action?.includes(role) ?? false;
        it(`${route.file} action: ${role} is ${allowed ? "let through" : "refused (403)"}`, async () => {
          const cookie = await cookieAs(role);
          const { url, params } = target(route);
          const before = allowed ? undefined : await snapshotFingerprint();
          const outcome = await call(
            route.module.action!,
            makeRequest(url, { cookie, form: forms()[route.file]?.form ?? {} }),
            undefined,
            params,
          );
          if (allowed) {
            // Past the guard: done (2xx/3xx), or refused by the action itself (a code to enrol).
            expect([401, 403]).not.toContain(outcome.status);
          } else {
            expect(outcome.status).toBe(403);
            expect(await snapshotFingerprint()).toEqual(before);
          }
        });
      }
    }
  }

  it("the refusals' fingerprint of the tables tells a changed row from an unchanged one", async () => {
    const start = await snapshotFingerprint();
    expect(await snapshotFingerprint()).toEqual(start);
    await database.db
      .update(offers)
      .set({ title: "Changée" })
      .where(eq(offers.id, Number(ids.offer)));
    const changed = await snapshotFingerprint();
    expect(changed.offers).not.toBe(start.offers);
    expect({ ...changed, offers: start.offers }).toEqual(start);
  });

  it("sends a Commercial and a Catalogue account from /admin to their part", async () => {
    const dashboard = adminRoutes().find((r) => r.file === "routes/admin/dashboard.tsx")!;
    for (const [role, home] of [
      ["sales", "/admin/contacts"],
      ["catalogue", "/admin/offers"],
    ] as const) {
      const outcome = await call(
        dashboard.module.loader!,
        makeRequest("/admin", { cookie: await cookieAs(role) }),
      );
      expect(outcome.status).toBe(302);
      expect(outcome.location).toBe(home);
    }
  });

  it("shows in the navigation only what the role may open", async () => {
    const layout = adminRoutes().find((r) => r.file === "routes/admin/layout.tsx")!;
    const navOf = async (role: Role) => {
      const outcome = await call(
        layout.module.loader!,
        makeRequest("/admin", { cookie: await cookieAs(role) }),
      );
      return (outcome.data as { nav: { label: string }[] }).nav.map((item) => item.label);
    };
    expect(await navOf("admin")).toEqual([
      "Tableau de bord",
      "Offres",
      "Demandes",
      "Mes relances",
      "Modèles de réponse",
      "Datacenters",
      "Synonymes",
      "Barème LOA",
      "Données personnelles",
      "Administrateurs",
      "Webhooks",
      "Journal",
      "Mon compte",
    ]);
    expect(await navOf("sales")).toEqual([
      "Demandes",
      "Mes relances",
      "Modèles de réponse",
      "Mon compte",
    ]);
    expect(await navOf("catalogue")).toEqual([
      "Offres",
      "Datacenters",
      "Synonymes",
      "Barème LOA",
      "Mon compte",
    ]);
  });
});
