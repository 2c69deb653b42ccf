import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseOfferForm } from "../../app/lib/offer-form-schema";
import { OFFER_FORM_DEFAULTS, type OfferFormValues } from "../../app/lib/offer-form";
import * as adminOffers from "../../app/routes/admin-offers";
import * as dashboard from "../../app/routes/admin";
import {
  createOffer,
  deleteOffer,
  freeSlug,
  OfferNotFoundError,
  updateOffer,
} from "../../app/server/admin-offers.server";
import { getCatalogueVersion } from "../../app/server/catalogue.server";
import { listContactRequests } from "../../app/server/admin-contacts.server";
import { createContactRequest } from "../../app/server/contacts.server";
import type { Database } from "../../app/server/db.server";
import { findActiveOfferBySlug } from "../../app/server/offers.server";
import { contactRequests, offers } from "../../app/server/schema.server";
import { openTestDatabase, testDatabaseKind } from "../support/database";
import {
  call,
  createAdmin,
  makeRequest,
  sessionCookieFor,
  snapshot,
  truncateAll,
  VALID_OFFER_FORM,
} from "../support/admin";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;
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

async function slugs() {
  return (await db.select({ slug: offers.slug }).from(offers)).map((r) => r.slug).sort();
}

describe(`admin offers (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
  });
  afterAll(async () => {
    await database?.dispose();
  });
  beforeEach(async () => {
    await truncateAll(db);
    const admin = await createAdmin(db);
    cookie = await sessionCookieFor(admin.id, db);
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
            adminOffers.action,
            makeRequest("/admin/offers?new=1", {
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
      expect(await freeSlug("gamma", undefined, db)).toBe("gamma-2");
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

    it("create, edit, deactivate and delete through the route action", async () => {
      const created = await call(
        adminOffers.action,
        makeRequest("/admin/offers?new=1", {
          cookie,
          form: { ...VALID_OFFER_FORM, intent: "create", featured: "on", engagement: "on" },
        }),
      );
      expect(created.status).toBe(302);
      expect(created.location).toBe("/admin/offers");
      expect(created.headers.get("set-cookie")).toContain("flash=offerCreated");
      const [row] = await db.select().from(offers);
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

      // The edit form is filled from the database.
      const page = await call(
        adminOffers.loader,
        makeRequest(`/admin/offers?edit=${row.id}`, { cookie }),
      );
      const pageData = page.data as Awaited<ReturnType<typeof adminOffers.loader>>;
      expect(pageData.form?.mode).toBe("edit");
      expect(pageData.form?.values.title).toBe("Serveur Test");

      const updated = await call(
        adminOffers.action,
        makeRequest(`/admin/offers?edit=${row.id}`, {
          cookie,
          form: {
            ...VALID_OFFER_FORM,
            intent: "update",
            id: String(row.id),
            slug: "serveur-test",
            type: "loa",
            price: "149,5",
            isActive: "",
          },
        }),
      );
      expect(updated.status).toBe(302);
      expect(updated.headers.get("set-cookie")).toContain("flash=offerUpdated");
      // An unchecked checkbox is not sent at all.
      const form = { ...VALID_OFFER_FORM, intent: "update", id: String(row.id), type: "loa" };
      delete (form as Partial<typeof form>).isActive;
      await call(adminOffers.action, makeRequest("/admin/offers", { cookie, form }));
      const [after] = await db.select().from(offers).where(eq(offers.id, row.id));
      expect(after).toMatchObject({ type: "loa", isActive: false, slug: "serveur-test" });
      expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(row.updatedAt.getTime());
      expect(await findActiveOfferBySlug("serveur-test")).toBeUndefined();

      const deleted = await call(
        adminOffers.action,
        makeRequest("/admin/offers", { cookie, form: { intent: "delete", id: String(row.id) } }),
      );
      expect(deleted.status).toBe(302);
      expect(deleted.headers.get("set-cookie")).toContain("flash=offerDeleted");
      expect(await db.select().from(offers)).toHaveLength(0);

      const again = await call(
        adminOffers.action,
        makeRequest("/admin/offers", { cookie, form: { intent: "delete", id: String(row.id) } }),
      );
      expect(again.status).toBe(404);
    });

    it("refuse bad input with 4xx and French messages, writing nothing", async () => {
      const cases: [Record<string, string>, number, RegExp][] = [
        [
          { ...VALID_OFFER_FORM, intent: "create", title: "  " },
          400,
          /Veuillez remplir tous les champs obligatoires/,
        ],
        [
          { ...VALID_OFFER_FORM, intent: "create", price: "" },
          400,
          /Veuillez remplir tous les champs obligatoires/,
        ],
        [{ ...VALID_OFFER_FORM, intent: "create", price: "-3" }, 400, /Le prix/],
        [{ ...VALID_OFFER_FORM, intent: "create", type: "vps" }, 400, /type d'offre/],
        [
          { ...VALID_OFFER_FORM, intent: "create", cpu: "x".repeat(10_000) },
          400,
          /ne doit pas dépasser/,
        ],
        [
          { ...VALID_OFFER_FORM, intent: "update", id: "abc" },
          400,
          /Erreur lors de la mise à jour/,
        ],
        [{ ...VALID_OFFER_FORM, intent: "update", id: "999999" }, 404, /n'existe plus/],
        [{ intent: "delete", id: "-1" }, 400, /Erreur lors de la suppression/],
        [{ intent: "drop" }, 400, /Requête invalide/],
        [{}, 400, /Requête invalide/],
      ];
      const before = await snapshot(db);
      for (const [form, status, message] of cases) {
        const outcome = await call(
          adminOffers.action,
          makeRequest("/admin/offers", { cookie, form }),
        );
        expect(outcome.status, JSON.stringify(form).slice(0, 80)).toBe(status);
        expect(JSON.stringify(outcome.data)).toMatch(message);
      }
      expect(await snapshot(db)).toEqual(before);
    });

    it("refuse text with NUL or control characters with a French message, changing nothing", async () => {
      const before = await snapshot(db);
      const outcome = await call(
        adminOffers.action,
        makeRequest("/admin/offers", {
          cookie,
          form: {
            ...VALID_OFFER_FORM,
            intent: "create",
            title: "Nul\u0000 offre",
            description: "a\u0000\nb",
          },
        }),
      );
      expect(outcome.status).toBe(400);
      expect(JSON.stringify(outcome.data)).toContain(
        "Le titre contient des caractères non autorisés.",
      );
      expect(await snapshot(db)).toEqual(before);
    });

    it("list every offer newest first, with the form and delete states from the URL", async () => {
      const a = await createOffer(input({ title: "Old" }));
      await db
        .update(offers)
        .set({ createdAt: new Date(Date.now() - 60_000) })
        .where(eq(offers.id, a.id));
      const b = await createOffer(input({ title: "New", isActive: false }));
      const outcome = await call(
        adminOffers.loader,
        makeRequest(`/admin/offers?new=1&delete=${a.id}`, { cookie }),
      );
      const pageData = outcome.data as Awaited<ReturnType<typeof adminOffers.loader>>;
      expect(pageData.offers.map((o) => o.id)).toEqual([b.id, a.id]);
      expect(pageData.form).toMatchObject({ mode: "create", values: OFFER_FORM_DEFAULTS });
      expect(pageData.pendingDelete?.id).toBe(a.id);
      const missing = await call(
        adminOffers.loader,
        makeRequest("/admin/offers?edit=424242", { cookie }),
      );
      expect((missing.data as typeof pageData).editMissing).toBe(true);
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
      await db.update(contactRequests).set({ status }).where(eq(contactRequests.id, row.id));
    }
    const outcome = await call(dashboard.loader, makeRequest("/admin", { cookie }));
    const { mail, mailEnabled, ...counts } = outcome.data as Record<string, unknown>;
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
