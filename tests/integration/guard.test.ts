import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as adminLogout from "../../app/routes/admin/logout";
import * as adminContacts from "../../app/routes/admin/contacts";
import * as dashboard from "../../app/routes/admin/dashboard";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { answerQuote } from "../../app/features/quotes/quote-answer.server";
import { drawQuoteLink, sendQuote } from "../../app/features/quotes/quote-sending.server";
import {
  mailOutbox,
  offers,
  quotes,
  sessions,
  signedDocuments,
  requestMessageAttachments,
  leaseDocuments,
  leaseFiles,
  contactRequests,
  requestMessages,
} from "../../app/platform/schema.server";
import { hashSessionToken } from "../../app/features/accounts/sessions.server";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";
import {
  call,
  createAdmin,
  expiredSessionCookie,
  makeRequest,
  snapshotFingerprint,
  signedInAdmin,
} from "../support/admin";
import { ADMIN_ACTION_FORMS, adminActionPosts, type ActionIds } from "../support/admin-actions";
import { adminRoutes, fillPath } from "../support/admin-routes";
import { adminActionRoutes } from "../support/route-table";

const database = useTestDatabase();
let validCookie: string;
let offerId: number;
let contactId: number;
let failedMailId: number;
let secondAdminId: number;
let signedDocumentId: number;
let messageId: number;
let attachmentId: number;
let leaseDocumentId: number;
let leaseFileRequestId: number;

type Call = {
  name: string;
  fn: (args: never) => unknown;
  path: string;
  params?: Record<string, string>;
  form?: Record<string, string>;
};

/** Query strings a loader must guard too (filters, React Router's data requests, dialogs). */
const LOADER_QUERIES: Record<string, string[]> = {
  "routes/admin/offers.tsx": [
    "?q=secret&type=dedicated&status=inactive&delete=1",
    "?_routes=routes%2Fadmin-offers",
  ],
  "routes/admin/offer-new.tsx": ["", "?from=1"],
  "routes/admin/contacts.tsx": ["?status=pending"],
  "routes/admin/users.tsx": ["?remove=1"],
  "routes/resources/admin-contacts-export[.]csv.ts": ["?status=pending"],
  "routes/resources/admin-personal-data-export.ts": ["?email=jeanne@example.fr"],
  "routes/admin/personal-data.tsx": ["?email=jeanne@example.fr"],
  "routes/admin/contact-request.tsx": ["", "?modele=1", "?transmettre=1"],
  "routes/admin/unattached-messages.tsx": ["?discard=1"],
  "routes/admin/reply-templates.tsx": ["?delete=1"],
  // The LOA file (issue 41): a document's removal asked, the hand-off asked.
  "routes/admin/lease.tsx": ["", "?remove=1"],
};

function params() {
  // Before beforeAll (when the tests are listed) the ids are not known yet: the guard reads none.
  return {
    "/admin/offers/:id:id": String(offerId ?? 1),
    "/admin/contacts/:id:id": String(contactId ?? 1),
    "/admin/contacts/:id/devis.pdf:id": String(contactId ?? 1),
    "/admin/contacts/:id/envoyer-devis:id": String(contactId ?? 1),
    "/admin/signed-documents/:id/pdf:id": String(signedDocumentId ?? 1),
    messageId: String(messageId ?? 1),
    attachmentId: String(attachmentId ?? 1),
    "/admin/contacts/:id/documents/:documentId:id": String(contactId ?? 1),
    documentId: String(leaseDocumentId ?? 1),
    "/admin/contacts/:id/dossier.zip:id": String(leaseFileRequestId ?? 1),
  };
}

/** Every admin loader of app/routes.ts, with the pages it serves. */
function loaders(): Call[] {
  return adminRoutes().flatMap((route) => {
    if (!route.module.loader) return [];
    const { url, params: routeParams } = fillPath(route, params());
    return (LOADER_QUERIES[route.file] ?? [""]).map((query) => ({
      name: `${route.file}${query}`,
      fn: route.module.loader!,
      path: `${url}${query}`,
      params: routeParams,
    }));
  });
}

/** This run's rows, named by the actions' forms. */
const ids = (): ActionIds => ({
  offerId,
  contactId,
  contactEmail: "jeanne@example.fr",
  failedMailId,
  secondAdminId,
});
const SIGN_OUT = "routes/admin/logout.tsx";
const actionOf = (file: string) => adminRoutes().find((r) => r.file === file)!.module.action!;

/**
 * Every admin action of app/routes.ts but sign-out (which needs no session: tested below), with
 * each form of ADMIN_ACTION_FORMS (an empty one where it has none), and a body that fails when
 * read: the guard answers before the action reads anything.
 */
function actions(): Call[] {
  const posts = adminActionPosts().filter((post) => post.file !== SIGN_OUT);
  const withForms = posts.map((post) => ({
    name: post.name,
    fn: actionOf(post.file),
    path: post.url(ids()),
    params: post.params(ids()),
    form: post.form(ids()),
  }));
  const files = [...new Set(posts.map((post) => post.file))];
  const unreadable = files.map((file) => {
    const post = posts.find((p) => p.file === file)!;
    const path = post.url(ids()).split("?")[0];
    return {
      name: `${file}: a body that fails when read`,
      fn: actionOf(file),
      path,
      params: post.params(ids()),
    };
  });
  return [...withForms, ...unreadable];
}

/** The request of `route`: its form, or (none) a body whose reading throws. */
function actionRequest(route: Call, cookie: string | undefined): Request {
  if (route.form) return makeRequest(route.path, { cookie, form: route.form });
  const body = new ReadableStream({
    pull(controller) {
      controller.error(new Error(`${route.name}: the action read the body before its guard`));
    },
  });
  // A form's type, so that it is the reading that fails, not the check of the type.
  const request = makeRequest(route.path, { cookie, method: "POST" });
  request.headers.set("content-type", "application/x-www-form-urlencoded");
  return new Request(request, { body, duplex: "half" } as RequestInit);
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
        password: "un autre mot de passe solide",
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
    // A quote accepted on another request: the signed document the personal data page hands over.
    const signedRequest = await createContactRequest({
      name: "Jeanne",
      email: "jeanne@example.fr",
      phone: null,
      message: "Un devis",
      offer: offerId,
    });
    const sent = await sendQuote(signedRequest.id, { validityDays: 30, discounts: [] }, admin);
    if (sent.kind !== "sent") throw new Error(`quote not sent: ${sent.kind}`);
    const [quote] = await database.db.select().from(quotes).where(eq(quotes.number, sent.number));
    const link = await drawQuoteLink(quote.id);
    const answer = { kind: "accept", name: "Jeanne", role: "Gérante" } as const;
    await answerQuote(link!.token, answer, { ip: "203.0.113.9", userAgent: "Vitest" });
    [{ id: signedDocumentId }] = await database.db.select().from(signedDocuments);
    // Its LOA file, complete (issue 41): the archive for the financer.
    leaseFileRequestId = signedRequest.id;
    await database.db
      .insert(leaseFiles)
      .values({ contactRequestId: signedRequest.id, quoteId: quote.id });
    await database.db
      .update(contactRequests)
      .set({ status: "file_complete" })
      .where(eq(contactRequests.id, signedRequest.id));
    // The buyer's answer in HTML with a file (issue 40): its layout and its download.
    [{ id: messageId }] = await database.db
      .insert(requestMessages)
      .values({
        contactRequestId: contactId,
        direction: "inbound",
        authorEmail: "jeanne@example.fr",
        subject: "Re: Votre demande",
        body: "Secret",
        html: "<p>Secret</p>",
        messageId: "<guard@example.fr>",
      })
      .returning({ id: requestMessages.id });
    [{ id: attachmentId }] = await database.db
      .insert(requestMessageAttachments)
      .values({
        messageId,
        filename: "secret.txt",
        contentType: "text/plain; charset=utf-8",
        size: 6,
        sha256: "0".repeat(64),
        data: Buffer.from("Secret"),
      })
      .returning({ id: requestMessageAttachments.id });
    // A document of an LOA file (issue 41): its download.
    [{ id: leaseDocumentId }] = await database.db
      .insert(leaseDocuments)
      .values({
        contactRequestId: contactId,
        kindTitle: "RIB de la société",
        fileName: "rib.pdf",
        contentType: "application/pdf",
        size: 6,
        sha256: "0".repeat(64),
        data: Buffer.from("%PDF-1"),
      })
      .returning({ id: leaseDocuments.id });
    [{ id: failedMailId }] = await database.db
      .update(mailOutbox)
      .set({ status: "failed", lastError: "550 refusé" })
      .returning({ id: mailOutbox.id });
  });

  for (const credential of CREDENTIALS) {
    describe(`with ${credential.name}`, () => {
      for (const route of loaders()) {
        it(`${route.name} loader redirects to /auth and reveals nothing`, async () => {
          const cookie = await credential.cookie();
          const before = await snapshotFingerprint(database.db);
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
          expect(await snapshotFingerprint(database.db)).toEqual(before);
        });
      }

      it("every action answers 401 and changes nothing", async () => {
        for (const route of actions()) {
          const cookie = await credential.cookie();
          const before = await snapshotFingerprint(database.db);
          const outcome = await call(
            route.fn,
            actionRequest(route, cookie),
            undefined,
            route.params,
          );
          expect(outcome.status, route.name).toBe(401);
          expect(JSON.stringify(outcome.data)).not.toContain("Secret");
          expect(await snapshotFingerprint(database.db), route.name).toEqual(before);
        }
      });

      it("sign-out has nothing to end and changes nothing", async () => {
        const cookie = await credential.cookie();
        const before = await snapshotFingerprint(database.db);
        const outcome = await call(
          adminLogout.action,
          makeRequest("/admin/logout", { cookie, form: {} }),
        );
        expect(outcome.status).toBe(302);
        expect(outcome.location).toBe("/");
        expect(await snapshotFingerprint(database.db)).toEqual(before);
      });
    });
  }

  it("posts to every admin action, found in app/routes.ts and the modules' exports", () => {
    const withAction = adminRoutes().filter((route) => route.module.action);
    // What the system suites read from the sources is what the modules export.
    expect(adminActionRoutes().map((route) => route.file)).toEqual(withAction.map((r) => r.file));
    const posted = new Set(actions().map((route) => route.fn));
    for (const route of withAction) {
      if (route.file !== SIGN_OUT) expect(posted.has(route.module.action!), route.file).toBe(true);
    }
    // No form left for an action that is gone.
    for (const file of Object.keys(ADMIN_ACTION_FORMS)) {
      expect(
        withAction.map((route) => route.file),
        file,
      ).toContain(file);
    }
  });

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
      // Sign-out's and the confirmation page's GETs lead on elsewhere (a fresh session is recent).
      const leadOn = ["routes/admin/logout", "routes/admin/confirm-identity"];
      for (const route of loaders().filter((r) => !leadOn.some((p) => r.name.startsWith(p)))) {
        const outcome = await call(
          route.fn,
          makeRequest(route.path, { cookie: validCookie }),
          undefined,
          route.params,
        );
        expect(outcome.status, route.name).toBe(200);
      }
      const before = await snapshotFingerprint(database.db);
      const outcome = await call(
        adminContacts.action,
        makeRequest("/admin/contacts", {
          cookie: validCookie,
          form: { id: String(contactId), status: "completed" },
        }),
      );
      expect(outcome.status).toBe(302);
      expect(await snapshotFingerprint(database.db)).not.toEqual(before);

      const retried = await call(
        dashboard.action,
        makeRequest("/admin", {
          cookie: validCookie,
          form: { intent: "retry-mail", id: String(failedMailId) },
        }),
      );
      expect(retried.status).toBe(302);
      const [mail] = await database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.id, failedMailId));
      expect(mail.status).toBe("pending");
    });
  });
});
