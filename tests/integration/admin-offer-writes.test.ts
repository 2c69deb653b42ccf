// The offer editor's writes (admin offers): its pages, the list's actions, the version bump.
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as adminOffers from "../../app/routes/admin/offers";
import * as offerEdit from "../../app/routes/admin/offer-edit";
import * as offerNew from "../../app/routes/admin/offer-new";
import {
  createOffer,
  deleteOffer,
  OfferNotFoundError,
  updateOffer,
} from "../../app/features/offers/offers.server";
import { findActiveOfferBySlug } from "../../app/features/offers/offer-listing.server";
import { getCatalogueVersion } from "../../app/features/offers/catalogue.server";
import { offers } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { VALID_OFFER_FORM } from "../support/offers";
import { offerInput as input, offerSlugs } from "../support/offer-input";

const { database, signedInAdmin, snapshotFingerprint } = useAdminSuite();
const slugs = () => offerSlugs(database.db);
let cookie: string;

async function rows<T = Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe(`admin offer writes (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    ({ cookie } = await signedInAdmin());
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
});
