// Admin offers: slugs, the list and the dashboard's counts (the editor's writes: admin-offer-writes.test.ts).
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as adminOffers from "../../app/routes/admin/offers";
import * as offerNew from "../../app/routes/admin/offer-new";
import * as dashboard from "../../app/routes/admin/dashboard";
import {
  createOffer,
  deleteOffer,
  freeSlug,
  updateOffer,
} from "../../app/features/offers/offers.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { listContactRequests } from "../../app/features/desk/contact-list.server";
import { contactRequests, offers } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { VALID_OFFER_FORM } from "../support/offers";
import { offerInput as input, offerSlugs } from "../support/offer-input";

const { database, signedInAdmin } = useAdminSuite();
const slugs = () => offerSlugs(database.db);
let cookie: string;

describe(`admin offers (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    ({ cookie } = await signedInAdmin());
  });

  describe("slugs", () => {
    it("come from the title (accents folded), with -1, -2 on conflict", async () => {
      const first = await createOffer(input());
      const second = await createOffer(input());
      const third = await createOffer(input());
      expect([first.slug, second.slug, third.slug]).toEqual([
        "serveur-epique",
        "serveur-epique-1",
        "serveur-epique-2",
      ]);
      // A freed candidate is used again: the rule looks for the first unused one.
      await deleteOffer(second.id);
      expect((await createOffer(input())).slug).toBe("serveur-epique-1");
      // A title that merely starts like another does not count as a conflict.
      expect((await createOffer(input({ title: "Serveur Épique Plus" }))).slug).toBe(
        "serveur-epique-plus",
      );
    });

    it("keep a typed slug, suffixed only if taken", async () => {
      expect((await createOffer(input({ slug: "mon-offre" }))).slug).toBe("mon-offre");
      expect((await createOffer(input({ slug: "Mon Offre" }))).slug).toBe("mon-offre-1");
    });

    it("stay distinct when the same title is created 8 times at once", async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => createOffer(input())));
      const created = results.map((r) => r.slug).sort();
      expect(new Set(created).size).toBe(8);
      expect(created).toEqual(
        [
          "serveur-epique",
          ...Array.from({ length: 7 }, (_, i) => `serveur-epique-${i + 1}`),
        ].sort(),
      );
      expect(await slugs()).toEqual(created);
    });

    it("stay distinct when 8 administrators post the same title at once (route action)", async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () =>
          call(
            offerNew.action,
            makeRequest("/admin/offers/new", {
              cookie,
              form: { ...VALID_OFFER_FORM, intent: "create" },
            }),
          ),
        ),
      );
      expect(outcomes.map((o) => o.status)).toEqual(Array(8).fill(302));
      const created = await slugs();
      expect(created).toHaveLength(8);
      expect(new Set(created).size).toBe(8);
      expect(created).toContain("serveur-test");
      expect(created).toContain("serveur-test-7");
    });

    it("stay unique when edited", async () => {
      const a = await createOffer(input({ title: "Alpha" }));
      const b = await createOffer(input({ title: "Beta" }));
      // Unchanged slug: kept as it is, even though the title changed.
      expect((await updateOffer(b.id, input({ title: "Beta 2", slug: "beta" }))).slug).toBe("beta");
      // Changed to another offer's slug: suffixed.
      expect((await updateOffer(b.id, input({ title: "Beta", slug: "alpha" }))).slug).toBe(
        "alpha-1",
      );
      // Saving again keeps its own slug rather than moving to -2.
      expect((await updateOffer(b.id, input({ title: "Beta", slug: "alpha-1" }))).slug).toBe(
        "alpha-1",
      );
      // Emptied: recomputed from the title.
      expect((await updateOffer(b.id, input({ title: "Gamma", slug: "" }))).slug).toBe("gamma");
      expect((await updateOffer(a.id, input({ title: "Gamma", slug: "" }))).slug).toBe("gamma-1");
      expect(await freeSlug("gamma", undefined, database.db)).toBe("gamma-2");
    });
  });

  describe("list", () => {
    async function list(query = "") {
      const outcome = await call(
        adminOffers.loader,
        makeRequest(`/admin/offers${query}`, { cookie }),
      );
      expect(outcome.status, query).toBe(200);
      return outcome.data as Awaited<ReturnType<typeof adminOffers.loader>>;
    }

    async function insertMany(
      n: number,
      fields: (i: number) => Partial<typeof offers.$inferInsert> = () => ({}),
    ) {
      const base = Date.now() - 10 * 86_400_000;
      await database.db.insert(offers).values(
        Array.from({ length: n }, (_, i) => ({
          slug: `offre-${i}`,
          title: `Offre ${i}`,
          reference: `REF-${i}`,
          cpu: "Intel Xeon",
          ram: "32 Go",
          storage: "1 To",
          price: "10.00",
          createdAt: new Date(base + i * 1000),
          ...fields(i),
        })),
      );
    }

    it("pages by 50, newest first; a page beyond the last gives the last", async () => {
      await insertMany(120);
      const first = await list();
      expect(first.total).toBe(120);
      expect(first.pageCount).toBe(3);
      expect(first.offers).toHaveLength(50);
      expect(first.offers[0].title).toBe("Offre 119");
      const third = await list("?page=3");
      expect(third.offers.map((o) => o.title)).toEqual(
        Array.from({ length: 20 }, (_, i) => `Offre ${19 - i}`),
      );
      const beyond = await call(
        adminOffers.loader,
        makeRequest("/admin/offers?page=99", { cookie }),
      );
      expect(beyond).toMatchObject({ status: 302, location: "/admin/offers?page=3" });
      // Every offer once across the pages.
      const all = [...first.offers, ...(await list("?page=2")).offers, ...third.offers];
      expect(new Set(all.map((o) => o.id)).size).toBe(120);
    });

    it("searches title, reference, CPU, RAM and slug; % and _ match literally", async () => {
      await insertMany(3);
      await createOffer(input({ title: "Remise 100% garantie", reference: "PCT-1" }));
      await createOffer(input({ title: "Remise 1000 euros", reference: "MIL-1" }));
      await createOffer(input({ title: "Serveur a_b", reference: "UND-1", slug: "special-slug" }));
      await createOffer(
        input({ title: "Serveur axb", reference: "AXB-1", cpu: "AMD Ryzen 9", ram: "128 Go ECC" }),
      );
      const titles = async (q: string) =>
        (await list(`?q=${encodeURIComponent(q)}`)).offers.map((o) => o.title).sort();
      expect(await titles("100%")).toEqual(["Remise 100% garantie"]);
      expect(await titles("a_b")).toEqual(["Serveur a_b"]);
      expect(await titles("%")).toEqual(["Remise 100% garantie"]);
      expect(await titles("_")).toEqual(["Serveur a_b"]);
      expect(await titles("mil-1")).toEqual(["Remise 1000 euros"]);
      expect(await titles("ryzen")).toEqual(["Serveur axb"]);
      expect(await titles("128 GO ecc")).toEqual(["Serveur axb"]);
      expect(await titles("special-slug")).toEqual(["Serveur a_b"]);
      expect(await titles("offre-2")).toEqual(["Offre 2"]);
      expect(await titles("\\")).toEqual([]);
      const none = await list("?q=introuvable");
      expect(none).toMatchObject({ total: 0, offers: [], pageCount: 1 });
    });

    it("filters by type and by active or inactive, combined with the search", async () => {
      await insertMany(6, (i) => ({ type: i % 2 ? "loa" : "dedicated", isActive: i < 3 }));
      const ids = async (q: string) => (await list(q)).offers.map((o) => o.title).sort();
      expect(await ids("?type=loa")).toEqual(["Offre 1", "Offre 3", "Offre 5"]);
      expect(await ids("?status=inactive")).toEqual(["Offre 3", "Offre 4", "Offre 5"]);
      expect(await ids("?type=dedicated&status=active")).toEqual(["Offre 0", "Offre 2"]);
      expect(await ids("?q=offre-5&type=loa&status=inactive")).toEqual(["Offre 5"]);
      // Junk is ignored, never a 500: the address is made canonical.
      for (const [query, location] of [
        ["?type=vps&status=%00&page=-4&q=%00%1F&extra=1", "/admin/offers"],
        ["?q=&type=&status=", "/admin/offers"],
        ["?status=active&q=x&type=loa", "/admin/offers?q=x&type=loa&status=active"],
        ["?page=1&delete=7", "/admin/offers?delete=7"],
      ]) {
        const outcome = await call(
          adminOffers.loader,
          makeRequest(`/admin/offers${query}`, { cookie }),
        );
        expect(outcome, query).toMatchObject({ status: 302, location });
      }
      const unknownOnly = await list("?extra=1");
      expect(unknownOnly.state).toEqual({ page: 1 });
      expect(unknownOnly.total).toBe(6);
    });

    it("reads the delete confirmation from the URL and sends old editor addresses to the pages", async () => {
      const { id } = await createOffer(input({ title: "À supprimer" }));
      const page = await list(`?q=supprimer&delete=${id}`);
      expect(page.pendingDelete).toEqual({ id, title: "À supprimer", reference: "EPQ-1" });
      expect(page.state.q).toBe("supprimer");
      expect((await list("?delete=424242")).deleteMissing).toBe(true);
      expect((await list("?delete=abc")).deleteMissing).toBe(false);
      const edit = await call(
        adminOffers.loader,
        makeRequest(`/admin/offers?edit=${id}`, { cookie }),
      );
      expect(edit).toMatchObject({ status: 302, location: `/admin/offers/${id}` });
      const create = await call(adminOffers.loader, makeRequest("/admin/offers?new=1", { cookie }));
      expect(create).toMatchObject({ status: 302, location: "/admin/offers/new" });
    });

    it("shows the spec's empty state data when there is no offer at all", async () => {
      expect(await list()).toMatchObject({
        total: 0,
        offers: [],
        pageCount: 1,
        state: { page: 1 },
      });
    });
  });

  it("dashboard counts come from the database", async () => {
    await createOffer(input());
    await createOffer(input({ isActive: false }));
    const { id } = await createOffer(input());
    for (const status of ["pending", "pending", "in_progress", "completed", "cancelled"] as const) {
      const row = await createContactRequest({
        name: "N",
        email: "n@example.fr",
        phone: null,
        message: "m",
        offer: id,
      });
      await database.db
        .update(contactRequests)
        .set({ status })
        .where(eq(contactRequests.id, row.id));
    }
    const outcome = await call(dashboard.loader, makeRequest("/admin", { cookie }));
    // The desk's charts have their own tests (the dashboard's figures here).
    const { mail, mailEnabled, charts, quoteStats, sources, ...counts } = outcome.data as Record<
      string,
      unknown
    >;
    expect(charts).toBeDefined();
    expect(quoteStats).toBeDefined();
    // Requests by source (issue 42): these came without one.
    expect(sources).toEqual([{ source: null, count: 5 }]);
    expect(counts).toEqual({
      offers: { total: 3, active: 2 },
      contacts: { total: 5, pending: 2, inProgress: 1, completed: 1 },
    });
    // Each request queued its notification; without SMTP_URL nothing is sent.
    expect(mail).toMatchObject({ pending: 5, failed: 0, troubled: [] });
    expect(mailEnabled).toBe(false);
    expect((await listContactRequests({ sort: "newest" })).total).toBe(5);
  });
});
