import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import * as adminLayout from "../../app/routes/admin/layout";
import * as adminLogout from "../../app/routes/admin/logout";
import * as adminContacts from "../../app/routes/admin/contacts";
import * as adminOffers from "../../app/routes/admin/offers";
import * as offerEdit from "../../app/routes/admin/offer-edit";
import * as offerNew from "../../app/routes/admin/offer-new";
import * as account from "../../app/routes/admin/account";
import * as adminUsers from "../../app/routes/admin/users";
import * as adminDatacenters from "../../app/routes/admin/datacenters";
import * as adminLease from "../../app/routes/admin/lease";
import * as dashboard from "../../app/routes/admin/dashboard";
import { createContactRequest } from "../../app/server/contacts.server";
import { mailOutbox, offers, sessions } from "../../app/server/schema.server";
import { hashSessionToken } from "../../app/server/sessions.server";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";
import {
  ADMIN,
  call,
  createAdmin,
  expiredSessionCookie,
  makeRequest,
  snapshot,
  signedInAdmin,
} from "../support/admin";
import { VALID_OFFER_FORM } from "../support/offers";

const database = useTestDatabase();
let validCookie: string;
let offerId: number;
let contactId: number;
let failedMailId: number;
let secondAdminId: number;

/** Every admin loader, with the page it serves. */
const LOADERS: {
  name: string;
  fn: (args: never) => unknown;
  path: string;
  params?: Record<string, string>;
}[] = [
  { name: "admin layout", fn: adminLayout.loader, path: "/admin" },
  { name: "dashboard", fn: dashboard.loader, path: "/admin" },
  {
    name: "offers",
    fn: adminOffers.loader,
    path: "/admin/offers?q=secret&type=dedicated&status=inactive&delete=1",
  },
  {
    name: "offers (.data)",
    fn: adminOffers.loader,
    path: "/admin/offers?_routes=routes%2Fadmin-offers",
  },
  { name: "offer editor (new)", fn: offerNew.loader, path: "/admin/offers/new" },
  { name: "offer editor (copy)", fn: offerNew.loader, path: "/admin/offers/new?from=1" },
  {
    name: "offer editor (edit)",
    fn: offerEdit.loader,
    path: "/admin/offers/1",
    params: { id: "1" },
  },
  { name: "contacts", fn: adminContacts.loader, path: "/admin/contacts?status=pending" },
  { name: "administrators", fn: adminUsers.loader, path: "/admin/users?remove=1" },
  { name: "my account", fn: account.loader, path: "/admin/account" },
  { name: "datacenters", fn: adminDatacenters.loader, path: "/admin/datacenters?remove=paris" },
  { name: "lease scale", fn: adminLease.loader, path: "/admin/lease" },
  { name: "logout (GET)", fn: adminLogout.loader, path: "/admin/logout" },
];

/** Every admin action, with a form that would change something given a valid session. */
type AdminAction = {
  name: string;
  fn: (args: never) => unknown;
  path: string;
  form: Record<string, string>;
  params?: Record<string, string>;
};

function actions(): AdminAction[] {
  return [
    {
      name: "create offer",
      fn: offerNew.action,
      path: "/admin/offers/new",
      form: { ...VALID_OFFER_FORM, title: "Forged offer" },
    },
    {
      name: "duplicate offer",
      fn: offerNew.action,
      path: `/admin/offers/new?from=${offerId}`,
      form: { ...VALID_OFFER_FORM, title: "Forged copy" },
    },
    {
      name: "update offer",
      fn: offerEdit.action,
      path: `/admin/offers/${offerId}`,
      form: { ...VALID_OFFER_FORM, title: "Hijacked" },
      params: { id: String(offerId) },
    },
    {
      name: "show offer",
      fn: adminOffers.action,
      path: "/admin/offers",
      form: { intent: "toggle", id: String(offerId), active: "1" },
    },
    {
      name: "delete offer",
      fn: adminOffers.action,
      path: "/admin/offers",
      form: { intent: "delete", id: String(offerId) },
    },
    {
      name: "add administrator",
      fn: adminUsers.action,
      path: "/admin/users",
      form: { intent: "add", email: "intrus@example.fr", password: "un mot de passe forgé" },
    },
    {
      name: "remove administrator",
      fn: adminUsers.action,
      path: "/admin/users",
      form: { intent: "remove", id: String(secondAdminId) },
    },
    {
      name: "add datacenter",
      fn: adminDatacenters.action,
      path: "/admin/datacenters",
      form: { intent: "add", name: "Forged" },
    },
    {
      name: "remove datacenter",
      fn: adminDatacenters.action,
      path: "/admin/datacenters",
      form: { intent: "remove", code: "paris" },
    },
    {
      name: "save lease scale",
      fn: adminLease.action,
      path: "/admin/lease",
      form: { c36: "0.9", purchaseOptionPercent: "50" },
    },
    {
      name: "change password",
      fn: account.action,
      path: "/admin/account",
      form: {
        currentPassword: ADMIN.password,
        newPassword: "un mot de passe forgé",
        confirmPassword: "un mot de passe forgé",
      },
    },
    {
      name: "change status",
      fn: adminContacts.action,
      path: "/admin/contacts",
      form: { id: String(contactId), status: "completed" },
    },
    {
      name: "retry a failed mail",
      fn: dashboard.action,
      path: "/admin",
      form: { intent: "retry-mail", id: String(failedMailId) },
    },
  ];
}

const CREDENTIALS: { name: string; cookie: () => Promise<string | undefined> }[] = [
  { name: "no session", cookie: async () => undefined },
  { name: "an expired session", cookie: async () => expiredSessionCookie(1, database.db) },
  {
    name: "a forged token",
    cookie: async () => `admin_session=${randomBytes(32).toString("base64url")}`,
  },
  {
    // Someone who read the sessions table: the stored hash is not a usable cookie.
    name: "a stolen session hash",
    cookie: async () => `admin_session=${(await database.db.select().from(sessions))[0].idHash}`,
  },
  { name: "a malformed cookie", cookie: async () => "admin_session=%E0%A4%A; other=1" },
];

describe(`admin guard (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    const { admin, cookie } = await signedInAdmin(database.db);
    expect(admin.id).toBe(1);
    validCookie = cookie;
    secondAdminId = (
      await createAdmin(database.db, {
        email: "second@example.fr",
        password: "un second mot de passe",
      })
    ).id;
    const [offer] = await database.db
      .insert(offers)
      .values({
        slug: "secret-offer",
        title: "Secret offer",
        reference: "SEC-1",
        cpu: "c",
        ram: "r",
        storage: "s",
        price: "10.00",
        isActive: false,
      })
      .returning();
    offerId = offer.id;
    contactId = (
      await createContactRequest({
        name: "Jeanne",
        email: "jeanne@example.fr",
        phone: null,
        message: "Bonjour",
        offer: offerId,
      })
    ).id;
    [{ id: failedMailId }] = await database.db
      .update(mailOutbox)
      .set({ status: "failed", lastError: "550 refusé" })
      .returning({ id: mailOutbox.id });
  });

  for (const credential of CREDENTIALS) {
    describe(`with ${credential.name}`, () => {
      for (const route of LOADERS) {
        it(`${route.name} loader redirects to /auth and reveals nothing`, async () => {
          const cookie = await credential.cookie();
          const before = await snapshot(database.db);
          const outcome = await call(
            route.fn,
            makeRequest(route.path, { cookie }),
            undefined,
            route.params,
          );
          expect(outcome.status).toBe(302);
          const location = new URL(outcome.location!, "http://x");
          expect(location.pathname).toBe("/auth");
          const back = location.searchParams.get("redirectTo")!;
          expect(back.startsWith("/admin")).toBe(true);
          expect(back).not.toContain("_routes");
          expect(outcome.data).toBeUndefined();
          expect(outcome.headers.get("cache-control")).toBe("no-store");
          expect(await snapshot(database.db)).toEqual(before);
        });
      }

      it("every action answers 401 and changes nothing", async () => {
        for (const route of actions()) {
          const cookie = await credential.cookie();
          const before = await snapshot(database.db);
          const outcome = await call(
            route.fn,
            makeRequest(route.path, { cookie, form: route.form }),
            undefined,
            route.params,
          );
          expect(outcome.status, route.name).toBe(401);
          expect(JSON.stringify(outcome.data)).not.toContain("Secret");
          expect(await snapshot(database.db), route.name).toEqual(before);
        }
      });

      it("sign-out has nothing to end and changes nothing", async () => {
        const cookie = await credential.cookie();
        const before = await snapshot(database.db);
        const outcome = await call(
          adminLogout.action,
          makeRequest("/admin/logout", { cookie, form: {} }),
        );
        expect(outcome.status).toBe(302);
        expect(outcome.location).toBe("/");
        expect(await snapshot(database.db)).toEqual(before);
      });
    });
  }

  it("the expired session is known to the database but refused", async () => {
    const cookie = await expiredSessionCookie(1, database.db);
    const token = cookie.split("=")[1];
    const rows = await database.db.select().from(sessions);
    expect(rows.some((r) => r.idHash === hashSessionToken(token))).toBe(true);
    const outcome = await call(dashboard.loader, makeRequest("/admin", { cookie }));
    expect(outcome.status).toBe(302);
    // The browser is told to forget the dead cookie.
    expect(outcome.headers.get("set-cookie")).toMatch(/^admin_session=; .*Max-Age=0/);
  });

  describe("with a valid session", () => {
    it("the same requests from the site itself are served", async () => {
      for (const route of LOADERS.filter((r) => r.name !== "logout (GET)")) {
        const outcome = await call(
          route.fn,
          makeRequest(route.path, { cookie: validCookie }),
          undefined,
          route.params,
        );
        expect(outcome.status, route.name).toBe(200);
      }
      const before = await snapshot(database.db);
      const outcome = await call(
        adminContacts.action,
        makeRequest("/admin/contacts", {
          cookie: validCookie,
          form: { id: String(contactId), status: "completed" },
        }),
      );
      expect(outcome.status).toBe(302);
      expect(await snapshot(database.db)).not.toEqual(before);

      const retried = await call(
        dashboard.action,
        makeRequest("/admin", {
          cookie: validCookie,
          form: { intent: "retry-mail", id: String(failedMailId) },
        }),
      );
      expect(retried.status).toBe(200);
      const [mail] = await database.db.select().from(mailOutbox);
      expect(mail.status).toBe("pending");
    });
  });
});
