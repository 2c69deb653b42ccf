import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { parseOfferForm } from "../../app/lib/offer-form-schema";
import { OFFER_FORM_DEFAULTS, type OfferFormValues } from "../../app/lib/offer-form";
import * as adminOffers from "../../app/routes/admin/offers";
import * as offerEdit from "../../app/routes/admin/offer-edit";
import * as offerNew from "../../app/routes/admin/offer-new";
import * as dashboard from "../../app/routes/admin/dashboard";
import {
  createOffer,
  deleteOffer,
  freeSlug,
  OfferNotFoundError,
  updateOffer,
} from "../../app/features/offers/offers.server";
import { findActiveOfferBySlug } from "../../app/features/offers/offer-listing.server";
import { getCatalogueVersion } from "../../app/features/offers/catalogue.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { listContactRequests } from "../../app/features/desk/contact-list.server";
import { contactRequests, offers } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { VALID_OFFER_FORM } from "../support/offers";

const { database, signedInAdmin, snapshotFingerprint } = useAdminSuite();
let cookie: string;

function input(fields: Partial<OfferFormValues> = {}) {
  const result = parseOfferForm({
    ...OFFER_FORM_DEFAULTS,
    title: "Serveur Épique",
    reference: "EPQ-1",
    cpu: "AMD EPYC",
    ram: "64 Go",
    storage: "1 To",
    price: "99.90",
    ...fields,
  });
  if (!result.success) throw new Error(result.message);
  return result.data;
}

async function rows<T = Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function slugs() {
  return (await database.db.select({ slug: offers.slug }).from(offers)).map((r) => r.slug).sort();
}

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

  describe("writes", () => {
    it("bump the public catalogue version in the same transaction", async () => {
      const v0 = Number((await getCatalogueVersion()).version);
      const { id } = await createOffer(input());
      await updateOffer(id, input({ price: "120" }));
      await deleteOffer(id);
      expect(Number((await getCatalogueVersion()).version)).toBe(v0 + 3);
      // A failed update (offer gone) writes nothing at all, not even the version.
      await expect(updateOffer(id, input())).rejects.toBeInstanceOf(OfferNotFoundError);
      expect(await deleteOffer(id)).toBe(false);
      expect(Number((await getCatalogueVersion()).version)).toBe(v0 + 3);
    });

    it("create, edit, deactivate and delete through the editor pages and the list", async () => {
      const created = await call(
        offerNew.action,
        makeRequest("/admin/offers/new", {
          cookie,
          form: { ...VALID_OFFER_FORM, intent: "create", featured: "on", engagement: "on" },
        }),
      );
      expect(created.status).toBe(302);
      expect(created.location).toBe("/admin/offers");
      expect(created.headers.get("set-cookie")).toContain("flash=offerCreated");
      const [row] = await database.db.select().from(offers);
      expect(row).toMatchObject({
        slug: "serveur-test",
        price: "199.99",
        featured: true,
        engagement: true,
        isActive: true,
        type: "dedicated",
        contractType: null,
      });
      expect(await findActiveOfferBySlug("serveur-test")).toBeDefined();

      // The edit page is filled from the database.
      const page = await call(
        offerEdit.loader,
        makeRequest(`/admin/offers/${row.id}`, { cookie }),
        undefined,
        { id: String(row.id) },
      );
      const pageData = page.data as Awaited<ReturnType<typeof offerEdit.loader>>;
      expect(pageData.id).toBe(row.id);
      expect(pageData.values.title).toBe("Serveur Test");
      expect(pageData.returnTo).toBe("/admin/offers");

      // The stored time and the database's clock, in full precision (a Date keeps milliseconds).
      const stamp = await rows<{ stored: string; clock: string }>(
        sql`select ${offers.updatedAt}::text as stored, now()::text as clock from ${offers} where ${offers.id} = ${row.id}`,
      );
      const updated = await call(
        offerEdit.action,
        makeRequest(
          `/admin/offers/${row.id}?returnTo=${encodeURIComponent("/admin/offers?q=test&page=2")}`,
          {
            cookie,
            form: {
              ...VALID_OFFER_FORM,
              slug: "serveur-test",
              type: "loa",
              price: "149,5",
              isActive: "",
            },
          },
        ),
        undefined,
        { id: String(row.id) },
      );
      expect(updated.status).toBe(302);
      // Back to the list where the administrator was.
      expect(updated.location).toBe("/admin/offers?q=test&page=2");
      expect(updated.headers.get("set-cookie")).toContain("flash=offerUpdated");
      const [edited] = await database.db.select().from(offers).where(eq(offers.id, row.id));
      // A checkbox sent at all, even empty, is checked: the offer is still shown.
      expect(edited).toMatchObject({ type: "loa", price: "149.50", isActive: true });
      // The save moved updatedAt forward, by the database's clock.
      expect(
        await rows(
          sql`select ${offers.updatedAt} > ${stamp[0].stored}::timestamptz as later, ${offers.updatedAt} >= ${stamp[0].clock}::timestamptz as current from ${offers} where ${offers.id} = ${row.id}`,
        ),
      ).toEqual([{ later: true, current: true }]);
      expect(await findActiveOfferBySlug("serveur-test")).toBeDefined();

      // An unchecked checkbox is not sent at all: the offer is hidden.
      const form: Record<string, string> = { ...VALID_OFFER_FORM, type: "loa" };
      delete form.isActive;
      const unchecked = await call(
        offerEdit.action,
        makeRequest(`/admin/offers/${row.id}`, { cookie, form }),
        undefined,
        { id: String(row.id) },
      );
      expect(unchecked.status).toBe(302);
      expect(unchecked.headers.get("set-cookie")).toContain("flash=offerUpdated");
      const [after] = await database.db.select().from(offers).where(eq(offers.id, row.id));
      expect(after).toMatchObject({ type: "loa", isActive: false, slug: "serveur-test" });
      expect(await findActiveOfferBySlug("serveur-test")).toBeUndefined();

      const deleted = await call(
        adminOffers.action,
        makeRequest("/admin/offers?type=loa", {
          cookie,
          form: { intent: "delete", id: String(row.id) },
        }),
      );
      expect(deleted.status).toBe(302);
      expect(deleted.location).toBe("/admin/offers?type=loa");
      expect(deleted.headers.get("set-cookie")).toContain("flash=offerDeleted");
      expect(await database.db.select().from(offers)).toHaveLength(0);

      const again = await call(
        adminOffers.action,
        makeRequest("/admin/offers", { cookie, form: { intent: "delete", id: String(row.id) } }),
      );
      expect(again.status).toBe(404);
      // The edit page of a deleted offer is the 404 page; so is a save to it, which writes nothing.
      const gone = await call(
        offerEdit.loader,
        makeRequest(`/admin/offers/${row.id}`, { cookie }),
        undefined,
        { id: String(row.id) },
      );
      expect(gone.status).toBe(404);
      const lateSave = await call(
        offerEdit.action,
        makeRequest(`/admin/offers/${row.id}`, { cookie, form: VALID_OFFER_FORM }),
        undefined,
        { id: String(row.id) },
      );
      expect(lateSave.status).toBe(404);
      expect(JSON.stringify(lateSave.data)).toContain("Cette offre n'existe plus.");
      expect(await database.db.select().from(offers)).toHaveLength(0);
    });

    it("show or hide an offer from the list, back to the same page", async () => {
      const { id } = await createOffer(input());
      const v0 = Number((await getCatalogueVersion()).version);
      const hide = await call(
        adminOffers.action,
        makeRequest("/admin/offers?page=3", {
          cookie,
          form: { intent: "toggle", id: String(id), active: "0" },
        }),
      );
      expect(hide.status).toBe(302);
      expect(hide.location).toBe("/admin/offers?page=3");
      expect(hide.headers.get("set-cookie")).toContain("flash=offerDeactivated");
      expect((await database.db.select().from(offers))[0].isActive).toBe(false);
      expect(Number((await getCatalogueVersion()).version)).toBe(v0 + 1);
      // The target state is posted, not "the opposite": a double click does not undo itself.
      for (let i = 0; i < 2; i++) {
        const show = await call(
          adminOffers.action,
          makeRequest("/admin/offers", {
            cookie,
            form: { intent: "toggle", id: String(id), active: "1" },
          }),
        );
        expect(show.headers.get("set-cookie")).toContain("flash=offerActivated");
      }
      expect((await database.db.select().from(offers))[0].isActive).toBe(true);
      // The way back is the list's own address, re-parsed: nothing else survives.
      const hostile = await call(
        adminOffers.action,
        makeRequest("/admin/offers?page=2&next=https://evil.example&type=%3Cb%3E", {
          cookie,
          form: { intent: "toggle", id: String(id), active: "1" },
        }),
      );
      expect(hostile.location).toBe("/admin/offers?page=2");

      const before = await snapshotFingerprint();
      for (const [form, status] of [
        [{ intent: "toggle", id: String(id) }, 400],
        [{ intent: "toggle", id: String(id), active: "yes" }, 400],
        [{ intent: "toggle", id: "abc", active: "1" }, 400],
        [{ intent: "toggle", id: "999999", active: "1" }, 404],
        [{ intent: "create", ...VALID_OFFER_FORM }, 400],
      ] as const) {
        const outcome = await call(
          adminOffers.action,
          makeRequest("/admin/offers", { cookie, form }),
        );
        expect(outcome.status, JSON.stringify(form)).toBe(status);
      }
      expect(await snapshotFingerprint()).toEqual(before);
    });

    it("never redirect outside the offer list after a save", async () => {
      for (const returnTo of [
        "https://evil.example/admin/offers?page=2",
        "//evil.example/admin/offers?page=2",
        "/admin/logout?x=1",
        "/\\evil.example",
        "/admin/offers?page=2&q=%25",
      ]) {
        const outcome = await call(
          offerNew.action,
          makeRequest(`/admin/offers/new?returnTo=${encodeURIComponent(returnTo)}`, {
            cookie,
            form: VALID_OFFER_FORM,
          }),
        );
        expect(outcome.status).toBe(302);
        expect(outcome.location, returnTo).toBe(
          returnTo.startsWith("/admin/offers?") ? "/admin/offers?q=%25&page=2" : "/admin/offers",
        );
      }
      // The loader hands the view only a validated address.
      const page = await call(
        offerNew.loader,
        makeRequest(`/admin/offers/new?returnTo=${encodeURIComponent("https://evil.example")}`, {
          cookie,
        }),
      );
      expect((page.data as { returnTo: string }).returnTo).toBe("/admin/offers");
    });

    it("preview the typed values without saving anything", async () => {
      const before = await snapshotFingerprint();
      const form = {
        ...VALID_OFFER_FORM,
        title: "",
        description: "# Titre\n\n<script>x</script>",
        preview: "1",
      };
      const outcome = await call(
        offerNew.action,
        makeRequest("/admin/offers/new", { cookie, form }),
      );
      expect(outcome.status).toBe(200);
      expect(outcome.data).toMatchObject({
        preview: true,
        values: { title: "", description: "# Titre\n\n<script>x</script>", cpu: "AMD EPYC 7543" },
      });
      expect(await snapshotFingerprint()).toEqual(before);
    });

    it("duplicate an offer: a copy title and a new slug by the spec's rule", async () => {
      const source = await createOffer(
        input({
          title: "Serveur Pro",
          description: "Texte",
          network: "10 Gbit/s",
          isActive: false,
        }),
      );
      const page = await call(
        offerNew.loader,
        makeRequest(`/admin/offers/new?from=${source.id}`, { cookie }),
      );
      const { values, from } = page.data as Awaited<ReturnType<typeof offerNew.loader>>;
      expect(from).toEqual({ id: source.id, title: "Serveur Pro" });
      expect(values).toMatchObject({
        title: "Serveur Pro (copie)",
        slug: "",
        reference: "EPQ-1",
        description: "Texte",
        network: "10 Gbit/s",
        isActive: false,
      });
      const form: Record<string, string> = {
        ...VALID_OFFER_FORM,
        title: values.title,
        reference: values.reference,
      };
      for (const n of [0, 1]) {
        const saved = await call(
          offerNew.action,
          makeRequest(`/admin/offers/new?from=${source.id}`, { cookie, form }),
        );
        expect(saved.status).toBe(302);
        expect(await slugs()).toContain(n === 0 ? "serveur-pro-copie" : "serveur-pro-copie-1");
      }
      // The original is untouched.
      const [original] = await database.db.select().from(offers).where(eq(offers.id, source.id));
      expect(original).toMatchObject({ title: "Serveur Pro", slug: "serveur-pro" });
      // A copy of an offer that does not exist is the 404 page; junk in `from` too.
      for (const from of ["424242", "abc", "-1", "0", "1e3"]) {
        const missing = await call(
          offerNew.loader,
          makeRequest(`/admin/offers/new?from=${from}`, { cookie }),
        );
        expect(missing.status, from).toBe(404);
      }
      // A long title still fits once marked as a copy.
      const long = await createOffer(input({ title: "L".repeat(150) }));
      const longPage = await call(
        offerNew.loader,
        makeRequest(`/admin/offers/new?from=${long.id}`, { cookie }),
      );
      const longTitle = (longPage.data as { values: { title: string } }).values.title;
      expect(longTitle).toHaveLength(150);
      expect(longTitle.endsWith(" (copie)")).toBe(true);
    });

    it("answer 404 for a malformed or unknown offer id", async () => {
      for (const id of ["abc", "0", "-1", "99999999999", "1.5", "424242"]) {
        const outcome = await call(
          offerEdit.loader,
          makeRequest(`/admin/offers/${id}`, { cookie }),
          undefined,
          { id },
        );
        expect(outcome.status, id).toBe(404);
        expect(JSON.stringify(outcome.data)).toContain("Cette offre n'existe plus.");
      }
    });

    it("refuse bad input with 4xx and French messages, writing nothing", async () => {
      const { id } = await createOffer(input());
      const cases: [Record<string, string>, number, RegExp, string?][] = [
        [
          { ...VALID_OFFER_FORM, title: "  " },
          400,
          /Veuillez remplir tous les champs obligatoires/,
        ],
        [{ ...VALID_OFFER_FORM, price: "" }, 400, /Veuillez remplir tous les champs obligatoires/],
        [{ ...VALID_OFFER_FORM, price: "-3" }, 400, /Le prix/],
        [{ ...VALID_OFFER_FORM, type: "vps" }, 400, /type d'offre/],
        [{ ...VALID_OFFER_FORM, cpu: "x".repeat(10_000) }, 400, /ne doit pas dépasser/],
        [{ ...VALID_OFFER_FORM, title: "  " }, 400, /Veuillez remplir/, String(id)],
        [{ ...VALID_OFFER_FORM }, 404, /n'existe plus/, "abc"],
        [{ ...VALID_OFFER_FORM }, 404, /n'existe plus/, "999999"],
      ];
      const before = await snapshotFingerprint();
      for (const [form, status, message, editId] of cases) {
        const outcome = editId
          ? await call(
              offerEdit.action,
              makeRequest(`/admin/offers/${editId}`, { cookie, form }),
              undefined,
              {
                id: editId,
              },
            )
          : await call(offerNew.action, makeRequest("/admin/offers/new", { cookie, form }));
        expect(outcome.status, JSON.stringify(form).slice(0, 80)).toBe(status);
        expect(JSON.stringify(outcome.data)).toMatch(message);
      }
      for (const [form, status, message] of [
        [{ intent: "delete", id: "-1" }, 400, /Erreur lors de la suppression/],
        [{ intent: "drop" }, 400, /Requête invalide/],
        [{}, 400, /Requête invalide/],
      ] as const) {
        const outcome = await call(
          adminOffers.action,
          makeRequest("/admin/offers", { cookie, form }),
        );
        expect(outcome.status).toBe(status);
        expect(JSON.stringify(outcome.data)).toMatch(message);
      }
      expect(await snapshotFingerprint()).toEqual(before);
    });

    it("refuse text with NUL or control characters with a French message, changing nothing", async () => {
      const before = await snapshotFingerprint();
      const outcome = await call(
        offerNew.action,
        makeRequest("/admin/offers/new", {
          cookie,
          form: {
            ...VALID_OFFER_FORM,
            title: "Nul\u0000 offre",
            description: "a\u0000\nb",
          },
        }),
      );
      expect(outcome.status).toBe(400);
      expect(JSON.stringify(outcome.data)).toContain(
        "Le titre contient des caractères non autorisés.",
      );
      // The typed values come back, so nothing typed is lost.
      expect(outcome.data).toMatchObject({ values: { description: "a\u0000\nb" } });
      expect(await snapshotFingerprint()).toEqual(before);
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
    const { mail, mailEnabled, charts, quoteStats, ...counts } = outcome.data as Record<
      string,
      unknown
    >;
    expect(charts).toBeDefined();
    expect(quoteStats).toBeDefined();
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
