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
import { buildOffer } from "../support/offers";
import { adminActionPosts, type ActionIds } from "../support/admin-actions";

// The role table of issue 20, route by route: every admin route of app/routes.ts is called as each
// role, its loader and its action. A route missing from EXPECTED is for the Administrateur only:
// a page opened to another role fails until its line here says so.

const { database, sessionCookieFor, snapshotFingerprint } = useAdminSuite();

const ALL = ROLES;
const ADMIN_ONLY = ["admin"] as const;
const OFFERS = ["admin", "catalogue"] as const;
const CONTACTS = ["admin", "sales"] as const;

type Access = { loader?: readonly Role[]; action?: readonly Role[] };

/**
 * Who may call what: the table, written independently of app/lib/roles.ts. A route not
 * named here is the Administrateur's alone (accessOf()).
 */
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

/** Query strings the loaders act on (the actions post their first form of admin-actions.ts). */
const QUERIES: Record<string, string> = {
  "routes/resources/admin-contacts-export[.]csv.ts": "?status=pending",
  "routes/resources/admin-personal-data-export.ts": "?email=jeanne@example.fr",
  "routes/admin/personal-data.tsx": "?email=jeanne@example.fr",
  "routes/admin/confirm-identity.tsx": "?redirectTo=%2Fadmin%2Faccount",
};

/** This run's rows, as the actions' forms name them. */
const actionIds = (): ActionIds => ({
  offerId: Number(ids.offer),
  contactId: Number(ids.contact),
  contactEmail: "jeanne@example.fr",
  failedMailId: Number(ids.mail),
  secondAdminId: Number(ids.target),
});

/** A form the action of `route` would act on with the right role. */
const actionForm = (route: AdminRoute) =>
  adminActionPosts()
    .find((post) => post.file === route.file)!
    .form(actionIds());

/** EXPECTED's line for `route`, or the Administrateur alone for what it has. */
function accessOf(route: AdminRoute): Access {
  return (
    EXPECTED[route.file] ?? {
      loader: route.module.loader ? ADMIN_ONLY : undefined,
      action: route.module.action ? ADMIN_ONLY : undefined,
    }
  );
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
    // No line left for a route that is gone.
    expect(routes.map((r) => r.file)).toEqual(expect.arrayContaining(Object.keys(EXPECTED)));
    for (const route of routes) {
      const expected = accessOf(route);
      expect(Boolean(route.module.loader), `${route.file} loader`).toBe(Boolean(expected.loader));
      expect(Boolean(route.module.action), `${route.file} action`).toBe(Boolean(expected.action));
    }
  });

  for (const route of adminRoutes()) {
    const expected = accessOf(route);
    for (const role of ROLES) {
      if (route.module.loader) {
        const allowed = expected.loader?.includes(role) ?? false;
        it(`${route.file} loader: ${role} is ${allowed ? "served" : "refused (403)"}`, async () => {
          const cookie = await cookieAs(role);
          const { url, params } = target(route, QUERIES[route.file]);
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
            makeRequest(url, { cookie, form: actionForm(route) }),
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
    const routes = adminRoutes();
    const layout = routes.find((r) => r.file === "routes/admin/layout.tsx")!;
    const linksOf = async (role: Role) => {
      const outcome = await call(
        layout.module.loader!,
        makeRequest("/admin", { cookie: await cookieAs(role) }),
      );
      return (outcome.data as { nav: { to: string; label: string }[] }).nav;
    };
    // Each link leads to a page of app/routes.ts that EXPECTED opens to the role.
    for (const role of ROLES) {
      for (const { to } of await linksOf(role)) {
        const page = routes.find((r) => r.path === to && r !== layout && r.module.loader);
        expect(page, `${role}: ${to}`).toBeDefined();
        expect(accessOf(page!).loader, `${role}: ${to}`).toContain(role);
      }
    }
    const navOf = async (role: Role) => (await linksOf(role)).map((item) => item.label);
    // The Administrateur sees these and any link added for it alone; the others exactly theirs.
    expect(await navOf("admin")).toEqual(
      expect.arrayContaining([
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
      ]),
    );
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
