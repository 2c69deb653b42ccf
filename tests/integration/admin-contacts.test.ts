import { asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as exportCsv from "../../app/routes/resources/admin-contacts-export[.]csv";
import * as adminContacts from "../../app/routes/admin/contacts";
import * as dashboard from "../../app/routes/admin/dashboard";
import { contactStatusCounts } from "../../app/features/desk/contact-counts.server";
import { exportContactRequests } from "../../app/features/desk/contact-export.server";
import { contactRequests, contactStatusChanges, offers } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { NO_STATUS_COUNTS } from "../support/contacts";
import { contactDesk, type DetailData } from "../support/contact-desk";

// The request desk's list: filters, pages, search, counts, status changes, the CSV export (the
// request's page, spam and guards: admin-contact-request.test.ts).
const { database, createAdmin, sessionCookieFor, signedInAdmin, snapshotFingerprint } =
  useAdminSuite();
let cookie: string;
let offerId: number;
const { page, names, detail, post, request, many } = contactDesk(database, () => cookie);

describe(`admin contact requests (${testDatabaseKind})`, () => {
  let adminId: number;
  beforeEach(async () => {
    ({
      admin: { id: adminId },
      cookie,
    } = await signedInAdmin());
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

  describe("list", () => {
    it("lists requests newest first with the offer as title (reference), message kept as written", async () => {
      await request("Alice", offerId, 30);
      await request("Bruno", null, 10);
      await request("Chloé", 999_999, 20);
      const { requests, filters, total } = await page("/admin/contacts");
      expect(filters).toEqual({ sort: "newest" });
      expect(total).toBe(3);
      expect(requests.map((r) => r.name)).toEqual(["Bruno", "Chloé", "Alice"]);
      const alice = requests[2];
      expect(alice).toMatchObject({
        email: "alice@example.fr",
        phone: "06 12 34 56 78",
        status: "pending",
        message: "Bonjour,\nje suis Alice.",
        messageCut: false,
        offer: { title: "EPYC 64", reference: "DED-64", deleted: false },
      });
      expect(alice.createdAt).toBeInstanceOf(Date);
      expect(requests[0].offer).toBeNull();
      expect(requests[1].offer).toBeNull(); // an unknown offer id is stored as no offer
    });

    it("keeps the offer readable once it is deleted", async () => {
      await request("Alice", offerId, 5);
      await database.db.delete(offers).where(eq(offers.id, offerId));
      const [alice] = (await page("/admin/contacts")).requests;
      expect(alice.offerId).toBeNull();
      expect(alice.offer).toEqual({ title: "EPYC 64", reference: "DED-64", deleted: true });
    });

    it("filters by status from the URL; junk parameters lead to the canonical address", async () => {
      const a = await request("Alice", null, 3);
      await request("Bruno", null, 2);
      await database.db
        .update(contactRequests)
        .set({ status: "in_progress" })
        .where(eq(contactRequests.id, a));
      expect(await names("/admin/contacts?status=in_progress")).toEqual(["Alice"]);
      expect(await names("/admin/contacts?status=pending")).toEqual(["Bruno"]);
      expect((await page("/admin/contacts?status=cancelled")).requests).toEqual([]);
      for (const [path, location] of [
        ["/admin/contacts?status=%27;drop", "/admin/contacts"],
        ["/admin/contacts?q=&status=pending&sort=newest", "/admin/contacts?status=pending"],
        ["/admin/contacts?sort=sideways&page=abc&q=%25", "/admin/contacts?q=%25"],
        ["/admin/contacts?page=-1", "/admin/contacts"],
        ["/admin/contacts?q=" + "x".repeat(300), `/admin/contacts?q=${"x".repeat(100)}`],
      ]) {
        const outcome = await call(adminContacts.loader, makeRequest(path, { cookie }));
        expect(outcome.status, path).toBe(302);
        expect(outcome.location, path).toBe(location);
      }
    });

    it("pages by 50, and a page past the end goes to the last one", async () => {
      await many(101);
      const first = await page("/admin/contacts");
      expect(first.total).toBe(101);
      expect(first.pageCount).toBe(3);
      expect(first.requests).toHaveLength(50);
      expect(first.requests[0].name).toBe("Lead 101");
      expect(first.requests[49].name).toBe("Lead 52");
      const second = await page("/admin/contacts?page=2");
      expect(second.requests.map((r) => r.name)).toEqual(
        Array.from({ length: 50 }, (_, i) => `Lead ${51 - i}`),
      );
      expect(await names("/admin/contacts?page=3")).toEqual(["Lead 1"]);
      const past = await call(
        adminContacts.loader,
        makeRequest("/admin/contacts?page=4", { cookie }),
      );
      expect(past.location).toBe("/admin/contacts?page=3");
      const oldest = await page("/admin/contacts?sort=oldest&page=3");
      expect(oldest.requests.map((r) => r.name)).toEqual(["Lead 101"]);
      expect(await names("/admin/contacts?sort=oldest")).toHaveLength(50);
      expect((await names("/admin/contacts?sort=oldest"))[0]).toBe("Lead 1");
      // Exactly 50: one page, no pager.
      await database.db.execute(sql`delete from contact_requests where name in ${["Lead 1"]}`);
      await database.db.execute(
        sql`delete from contact_requests where id in (select id from contact_requests order by id limit 50)`,
      );
      expect((await page("/admin/contacts")).pageCount).toBe(1);
    });

    it("searches name, e-mail, phone, message and offer reference, case-insensitively", async () => {
      await request("Alice", offerId, 5, { message: "Besoin d'un serveur GPU" });
      await request("Bruno", null, 4, { phone: "+33 6 98 76 54 32" });
      await request("Chloé", null, 3, { message: "Remise de 100% ?" });
      await request("Denis", null, 2, { message: "mon_identifiant est libre" });
      await request("Émile", null, 1, { message: "monXidentifiant" });
      expect(await names("/admin/contacts?q=ALICE")).toEqual(["Alice"]);
      expect(await names("/admin/contacts?q=bruno%40example")).toEqual(["Bruno"]);
      expect(await names("/admin/contacts?q=98+76")).toEqual(["Bruno"]);
      expect(await names("/admin/contacts?q=gpu")).toEqual(["Alice"]);
      expect(await names("/admin/contacts?q=ded-64")).toEqual(["Alice"]);
      expect(await names("/admin/contacts?q=%C3%A9mile")).toEqual(["Émile"]);
      // % and _ are the letters themselves, not wildcards.
      expect(await names("/admin/contacts?q=100%25")).toEqual(["Chloé"]);
      expect(await names("/admin/contacts?q=%25")).toEqual(["Chloé"]);
      expect(await names("/admin/contacts?q=mon_id")).toEqual(["Denis"]);
      expect(await names("/admin/contacts?q=%5C")).toEqual([]);
      const none = await page("/admin/contacts?q=introuvable");
      expect(none.requests).toEqual([]);
      expect(none.total).toBe(0);
      expect(none.pageCount).toBe(1);
      // Search and status together.
      expect(await names("/admin/contacts?q=example&status=completed")).toEqual([]);
      expect((await page("/admin/contacts?q=example")).total).toBe(5);
    });

    it("cuts long messages on the list; the request's page has them whole", async () => {
      const long = `${"a".repeat(4000)}\n${"b".repeat(999)}`;
      const id = await request("Alice", null, 1, { message: long });
      const [card] = (await page("/admin/contacts")).requests;
      expect(card.messageCut).toBe(true);
      expect(card.message).toBe("a".repeat(140));
      const full = (await detail(id)).data as DetailData;
      expect(full.request.message).toBe(long);
    });

    it("counts each status exactly from the counters, spam apart, after every change", async () => {
      await many(7);
      const ids = (await database.db.select({ id: contactRequests.id }).from(contactRequests)).map(
        (r) => r.id,
      );
      await request("Spam", null, 1, { spam: true });
      for (const [i, status] of [
        [0, "in_progress"],
        [1, "in_progress"],
        [2, "completed"],
        [3, "cancelled"],
        [3, "completed"],
      ] as const) {
        const outcome = await post(ids[i], { intent: "status", status });
        expect(outcome.status).toBe(302);
      }
      const counts = {
        ...NO_STATUS_COUNTS,
        pending: 3,
        in_progress: 2,
        completed: 2,
        total: 7,
        spam: 1,
      };
      expect((await page("/admin/contacts")).counts).toEqual(counts);
      expect((await page("/admin/contacts")).total).toBe(7);
      expect((await page("/admin/contacts?status=completed")).total).toBe(2);
      expect(await names("/admin/contacts?status=spam")).toEqual(["Spam"]);
      const board = await call(dashboard.loader, makeRequest("/admin", { cookie }));
      expect((board.data as { contacts: unknown }).contacts).toEqual({
        total: 7,
        pending: 3,
        inProgress: 2,
        completed: 2,
      });
      // The counters agree with a full count.
      const full = (await database.db.execute(
        sql`select status, count(*)::int as n from contact_requests where not suspected_spam group by 1`,
      )) as unknown as { rows: { status: string; n: number }[] };
      const recount = Object.fromEntries(full.rows.map((r) => [r.status, r.n]));
      const stored = await contactStatusCounts(database.db);
      for (const status of ["pending", "in_progress", "completed", "cancelled"] as const) {
        expect(stored[status]).toBe(recount[status] ?? 0);
      }
    });
  });

  describe("status changes", () => {
    it("changes from any to any from the list, records who, returns to the same view", async () => {
      const id = await request("Alice", null, 60);
      const [before] = await database.db.select().from(contactRequests);
      for (const status of ["completed", "pending", "cancelled", "in_progress"]) {
        const outcome = await call(
          adminContacts.action,
          makeRequest("/admin/contacts", {
            cookie,
            form: { id: String(id), status, back: "?status=pending&sort=oldest&page=2" },
          }),
        );
        expect(outcome.status).toBe(302);
        expect(outcome.location).toBe("/admin/contacts?status=pending&sort=oldest&page=2");
        expect(outcome.headers.get("set-cookie")).toContain("flash=statusUpdated");
        const [row] = await database.db.select().from(contactRequests);
        expect(row.status).toBe(status);
      }
      const [after] = await database.db.select().from(contactRequests);
      expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
      expect(after.createdAt).toEqual(before.createdAt);
      const history = await database.db
        .select()
        .from(contactStatusChanges)
        .orderBy(asc(contactStatusChanges.id));
      expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([
        ["pending", "completed"],
        ["completed", "pending"],
        ["pending", "cancelled"],
        ["cancelled", "in_progress"],
      ]);
      expect(
        history.every((h) => h.authorId === adminId && h.authorEmail === "admin@example.fr"),
      ).toBe(true);
      // A list address that is not one goes back to the plain list.
      const outcome = await call(
        adminContacts.action,
        makeRequest("/admin/contacts", {
          cookie,
          form: { id: String(id), status: "pending", back: "https://evil.example/" },
        }),
      );
      expect(outcome.location).toBe("/admin/contacts");
    });

    it("records the same status again as nothing, and shows history newest first with its author", async () => {
      const id = await request("Alice", null, 60);
      const other = await createAdmin({
        email: "second@example.fr",
        password: "un deuxième mot de passe solide",
      });
      const otherCookie = await sessionCookieFor(other.id);
      expect((await post(id, { intent: "status", status: "in_progress" })).status).toBe(302);
      const stamp = (await database.db.select().from(contactRequests))[0].updatedAt;
      expect((await post(id, { intent: "status", status: "in_progress" })).status).toBe(302);
      expect((await database.db.select().from(contactRequests))[0].updatedAt).toEqual(stamp);
      expect(
        (await post(id, { intent: "status", status: "completed" }, { cookie: otherCookie })).status,
      ).toBe(302);
      const { request: page } = (await detail(id)).data as DetailData;
      expect(page.status).toBe("completed");
      expect(page.history.map((h) => [h.fromStatus, h.toStatus, h.authorEmail])).toEqual([
        ["in_progress", "completed", "second@example.fr"],
        ["pending", "in_progress", "admin@example.fr"],
      ]);
    });

    it("refuses a bad status or id with 4xx and the spec's message, changing nothing", async () => {
      const id = await request("Alice", null, 1);
      const before = await snapshotFingerprint();
      for (const [form, status] of [
        [{ id: String(id), status: "archived" }, 400],
        [{ id: "abc", status: "completed" }, 400],
        [{ id: "1e3", status: "completed" }, 400],
        [{ id: "99999999999", status: "completed" }, 400],
        [{ id: String(id) }, 400],
        [{}, 400],
        [{ id: "424242", status: "completed" }, 404],
      ] as const) {
        const outcome = await call(
          adminContacts.action,
          makeRequest("/admin/contacts", { cookie, form: form as Record<string, string> }),
        );
        expect(outcome.status, JSON.stringify(form)).toBe(status);
        expect(outcome.data).toMatchObject({ error: "Erreur lors de la mise à jour du statut" });
      }
      const unknownIntent = await call(
        adminContacts.action,
        makeRequest("/admin/contacts", { cookie, form: { id: String(id), intent: "drop" } }),
      );
      expect(unknownIntent.status).toBe(400);
      expect(await snapshotFingerprint()).toEqual(before);
    });
  });

  describe("CSV export", () => {
    async function csv(path: string) {
      const response = await exportCsv.loader({
        request: makeRequest(path, { cookie }),
        params: {},
        context: { requestId: "test" },
      } as never);
      const bytes = new Uint8Array(await response.arrayBuffer());
      // response.text() would drop the BOM: decode it as a spreadsheet reads the file.
      return { response, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
    }

    it("has a BOM, French headers, ';', Paris dates, quoting and no formula", async () => {
      const id = await request("Alice", offerId, 0, {
        message: 'Ligne 1; "citée"\nLigne 2',
        phone: "+33 6 12 34 56 78",
      });
      await database.db
        .update(contactRequests)
        .set({ createdAt: new Date("2026-07-14T08:05:00Z") })
        .where(eq(contactRequests.id, id));
      await request('=HYPERLINK("http://x")', null, 5, { message: "@SUM(A1)" });
      await request("-2+3", null, 6, { message: "\tcaché" });
      await request("Robot", null, 7, { spam: true });
      const { response, text, bytes } = await csv("/admin/contacts/export.csv");
      expect(response.status).toBe(200);
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("content-disposition")).toMatch(
        /^attachment; filename="demandes-contact-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(
        text.startsWith(
          "\uFEFFDate;Nom;Email;Téléphone;Offre;Référence;Statut;Message;Configuration;Société;SIREN;N° TVA;Source;Support;Campagne;Site référent\r\n",
        ),
      ).toBe(true);
      const lines = text.slice(1).split("\r\n");
      // Newest first: Alice (14 July) comes last.
      expect(lines[1]).toMatch(
        /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2};"'=HYPERLINK\(""http:\/\/x""\)";hyperlinkhttpx@example\.fr;;;;En attente;'@SUM\(A1\);;;;;;;;$/,
      );
      expect(lines[2]).toMatch(/;'-2\+3;23@example\.fr;;;;En attente;'\tcaché;;;;;;;;$/);
      expect(lines[3]).toBe(
        `14/07/2026 10:05;Alice;alice@example.fr;'+33 6 12 34 56 78;EPYC 64;DED-64;En attente;"Ligne 1; ""citée""\nLigne 2";;;;;;;;`,
      );
      expect(lines).toHaveLength(5); // header, 3 requests, '' after the last CRLF: no spam
      expect(text).not.toContain("Robot");
    });

    it("follows the list's filters: status, search, spam, sort", async () => {
      const a = await request("Alice", null, 3);
      await request("Bruno", null, 2);
      await request("Robot", null, 1, { spam: true });
      await post(a, { intent: "status", status: "completed" });
      const rows = async (path: string) =>
        (await csv(path)).text
          .slice(1)
          .split("\r\n")
          .slice(1, -1)
          .map((l) => l.split(";")[1]);
      expect(await rows("/admin/contacts/export.csv")).toEqual(["Bruno", "Alice"]);
      expect(await rows("/admin/contacts/export.csv?sort=oldest")).toEqual(["Alice", "Bruno"]);
      expect(await rows("/admin/contacts/export.csv?status=completed")).toEqual(["Alice"]);
      expect(await rows("/admin/contacts/export.csv?q=BRU")).toEqual(["Bruno"]);
      expect(await rows("/admin/contacts/export.csv?status=spam")).toEqual(["Robot"]);
      expect(
        (await csv("/admin/contacts/export.csv?status=spam")).response.headers.get(
          "content-disposition",
        ),
      ).toContain("demandes-contact-spam-");
      expect(await rows("/admin/contacts/export.csv?q=personne")).toEqual([]);
      expect(await rows("/admin/contacts/export.csv?status=junk&page=7")).toEqual([
        "Bruno",
        "Alice",
      ]);
    });

    it("reads a few thousand rows by batches, each row once, in order, even with equal dates", async () => {
      await many(2_500);
      // 600 of them share one instant: the keyset must still move on by id.
      await database.db.execute(
        sql`update contact_requests set created_at = '2026-01-01T10:00:00.123456Z' where id % 4 = 0`,
      );
      for (const sort of ["newest", "oldest"] as const) {
        const seen: number[] = [];
        let batches = 0;
        for await (const batch of exportContactRequests({ sort }, 200, database.db)) {
          expect(batch.length).toBeLessThanOrEqual(200);
          batches++;
          seen.push(...batch.map((r) => r.id));
        }
        expect(batches).toBe(13);
        expect(new Set(seen).size).toBe(2_500);
        const expected = (
          await database.db
            .select({ id: contactRequests.id })
            .from(contactRequests)
            .orderBy(
              ...(sort === "newest"
                ? [sql`created_at desc`, sql`id desc`]
                : [sql`created_at asc`, sql`id asc`]),
            )
        ).map((r) => r.id);
        expect(seen).toEqual(expected);
      }
      const { text } = await csv("/admin/contacts/export.csv");
      expect(text.split("\r\n")).toHaveLength(2_502);
    }, 60_000);
  });
});
