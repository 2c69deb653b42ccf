import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as contactPage from "../../app/routes/admin/contact-request";
import * as exportCsv from "../../app/routes/resources/admin-contacts-export[.]csv";
import * as adminContacts from "../../app/routes/admin/contacts";
import {
  contactNotes,
  contactRequests,
  contactStatusChanges,
  mailOutbox,
  offers,
} from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { contactDesk, type DetailData } from "../support/contact-desk";

// A request's page: what the visitor sent, notes, suspected spam, anonymous writes (the list:
// admin-contacts.test.ts).
const { database, signedInAdmin, snapshotFingerprint } = useAdminSuite();
let cookie: string;
let offerId: number;
const { page, names, detail, post, request } = contactDesk(database, () => cookie);

describe(`admin contact request page (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    ({ cookie } = await signedInAdmin());
    [{ id: offerId }] = await database.db
      .insert(offers)
      .values({
        slug: "epyc",
        title: "EPYC 64",
        reference: "DED-64",
        cpu: "c",
        ram: "r",
        storage: "s",
        price: "10.00",
      })
      .returning();
  });

  describe("the request's page", () => {
    it("shows everything the visitor sent, with the offer as it is now", async () => {
      const id = await request("Alice", offerId, 5);
      const outcome = await detail(id);
      expect(outcome.status).toBe(200);
      const { request: page } = outcome.data as DetailData;
      expect(page).toMatchObject({
        id,
        name: "Alice",
        email: "alice@example.fr",
        phone: "06 12 34 56 78",
        message: "Bonjour,\nje suis Alice.",
        status: "pending",
        offer: { title: "EPYC 64", reference: "DED-64", deleted: false },
        offerSlug: "epyc",
        offerPrice: "10.00",
        notes: [],
        history: [],
      });
      await database.db.delete(offers);
      const gone = (await detail(id)).data as DetailData;
      expect(gone.request.offer).toEqual({ title: "EPYC 64", reference: "DED-64", deleted: true });
    });

    it("answers 404 for an unknown or malformed id", async () => {
      for (const id of ["424242", "0", "-1", "abc", "1.5", "99999999999", "1%00", " 1"]) {
        const outcome = await detail(id);
        expect(outcome.status, id).toBe(404);
        expect(await post(id, { intent: "note", note: "x" }).then((o) => o.status), id).toBe(404);
      }
    });

    it("adds notes signed by their author, newest first, as activity on the request", async () => {
      const id = await request("Alice", null, 60);
      const [before] = await database.db.select().from(contactRequests);
      const first = await post(id, { intent: "note", note: "  Rappeler mardi.\nDevis envoyé.  " });
      expect(first.status).toBe(302);
      expect(first.location).toBe(`/admin/contacts/${id}`);
      expect(first.headers.get("set-cookie")).toContain("flash=noteAdded");
      await post(id, { intent: "note", note: "Deuxième note" });
      const { request: page } = (await detail(id)).data as DetailData;
      expect(page.notes.map((n) => [n.body, n.authorEmail])).toEqual([
        ["Deuxième note", "admin@example.fr"],
        ["Rappeler mardi.\nDevis envoyé.", "admin@example.fr"],
      ]);
      expect(page.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
      expect(page.status).toBe("pending");
    });

    it("refuses empty, too long or control-character notes with a French message, keeping the text", async () => {
      const id = await request("Alice", null, 60);
      const before = await snapshotFingerprint();
      for (const [note, message] of [
        ["", "La note est vide."],
        ["   \n ", "La note est vide."],
        ["x".repeat(5001), "La note ne doit pas dépasser 5000 caractères."],
        ["a\u0000b", "La note contient des caractères non autorisés."],
        ["a\u001bb", "La note contient des caractères non autorisés."],
        ["a\u007fb", "La note contient des caractères non autorisés."],
      ]) {
        const outcome = await post(id, { intent: "note", note });
        expect(outcome.status, JSON.stringify(note.slice(0, 10))).toBe(400);
        expect(outcome.data).toMatchObject({
          intent: "note",
          error: "Erreur lors de l'ajout de la note",
          description: message,
          values: { note },
        });
      }
      expect(await snapshotFingerprint()).toEqual(before);
      expect((await post(id, { intent: "note", note: "x".repeat(5000) })).status).toBe(302);
      expect((await post(id, { intent: "note", note: "tab\there\r\nok" })).status).toBe(302);
    });
  });

  describe("suspected spam", () => {
    it("stays out of the default list and counts, in its own filter, and back with one notification", async () => {
      await request("Alice", null, 3);
      const spam = await request("Robot", null, 2, { spam: true });
      expect(await names("/admin/contacts")).toEqual(["Alice"]);
      expect(await names("/admin/contacts?q=robot")).toEqual([]);
      expect(await names("/admin/contacts?status=pending")).toEqual(["Alice"]);
      expect(await names("/admin/contacts?status=spam")).toEqual(["Robot"]);
      expect((await page("/admin/contacts?status=spam")).requests[0].suspectedSpam).toBe(true);
      expect((await page("/admin/contacts")).counts).toMatchObject({
        total: 1,
        pending: 1,
        spam: 1,
      });

      const outcome = await call(
        adminContacts.action,
        makeRequest("/admin/contacts", {
          cookie,
          form: { intent: "not-spam", id: String(spam), back: "?status=spam" },
        }),
      );
      expect(outcome.status).toBe(302);
      expect(outcome.location).toBe("/admin/contacts?status=spam");
      expect(outcome.headers.get("set-cookie")).toContain("flash=notSpam");
      // A second click (or a second administrator) sends nothing more.
      expect((await post(spam, { intent: "not-spam" })).status).toBe(302);
      // Alice's request queued its own notification when it was stored; the spam one, only now.
      const mails = await database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.contactRequestId, spam));
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ contactRequestId: spam, status: "pending" });
      expect(await names("/admin/contacts")).toEqual(["Robot", "Alice"]);
      expect(await names("/admin/contacts?status=spam")).toEqual([]);
      expect((await page("/admin/contacts")).counts).toMatchObject({
        total: 2,
        pending: 2,
        spam: 0,
      });
      expect((await post(424242, { intent: "not-spam" })).status).toBe(404);
    });
  });

  describe("guards", () => {
    // Cross-site posts: tests/system/cross-site.test.ts (refused at the HTTP layer).
    it("anonymous requests change nothing", async () => {
      const id = await request("Alice", null, 3);
      const spam = await request("Robot", null, 2, { spam: true });
      const before = await snapshotFingerprint();
      const forms: Record<string, string>[] = [
        { intent: "status", id: String(id), status: "completed" },
        { intent: "note", id: String(id), note: "intrus" },
        { intent: "not-spam", id: String(spam) },
      ];
      for (const form of forms) {
        for (const [options, status] of [[{ cookie: undefined }, 401]] as const) {
          const list = await call(
            adminContacts.action,
            makeRequest("/admin/contacts", Object.assign({ cookie, form }, options)),
          );
          expect(list.status, `${form.intent} ${JSON.stringify(options)}`).toBe(status);
          const own = await post(form.id, form, options);
          expect(own.status).toBe(status);
        }
      }
      expect(await snapshotFingerprint()).toEqual(before);
      for (const path of [
        "/admin/contacts",
        `/admin/contacts/${id}`,
        "/admin/contacts/export.csv",
      ]) {
        const loader =
          path === "/admin/contacts"
            ? adminContacts.loader
            : path.endsWith(".csv")
              ? exportCsv.loader
              : (args: never) =>
                  contactPage.loader({ ...(args as object), params: { id: String(id) } } as never);
        const outcome = await call(loader, makeRequest(path));
        expect(outcome.status, path).toBe(302);
        expect(outcome.location).toContain("/auth?redirectTo=");
      }
    });
  });

  it("keeps notes and history when the request is read back after other writes", async () => {
    const id = await request("Alice", null, 3);
    await post(id, { intent: "note", note: "n" });
    await post(id, { intent: "status", status: "completed" });
    expect(await database.db.select().from(contactNotes)).toHaveLength(1);
    expect(await database.db.select().from(contactStatusChanges)).toHaveLength(1);
  });
});
