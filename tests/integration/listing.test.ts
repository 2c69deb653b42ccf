import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { OfferFilters } from "../../app/lib/offer-filters";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import {
  findActiveOfferBySlug,
  listActiveOffers,
} from "../../app/features/offers/offer-listing.server";
import { listOfferChoices } from "../../app/features/offers/offer-choices.server";
import { contactRequests, offers, type NewOffer } from "../../app/platform/schema.server";
import { loadDemoOffers, seedIfEmpty } from "../../app/features/setup/seed.server";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase();

const FIXTURES: NewOffer[] = [
  buildOffer(1, { title: "EPYC Alpha", cpu: "AMD EPYC 7543", price: "899.99", engagement: true }),
  buildOffer(2, { title: "Xeon Beta", price: "49.00", type: "loa" }),
  buildOffer(3, {
    title: "Ryzen Gamma",
    cpu: "AMD Ryzen 9 7950X",
    ram: "128 Go DDR5",
    price: "189.90",
  }),
  buildOffer(4, {
    title: "Promo 100% Delta",
    reference: "PROMO_100",
    price: "69.00",
    type: "loa",
    engagement: true,
  }),
  buildOffer(5, { title: "Hidden epyc", cpu: "AMD EPYC 9254", price: "120.00", isActive: false }),
  buildOffer(6, { title: "Reference only", reference: "DED-epyc-X", price: "500.00" }),
  buildOffer(7, { title: "Boundary", price: "50.00" }),
  buildOffer(8, { title: "Boundary high", price: "500.00", engagement: true }),
];

async function titles(filters: OfferFilters) {
  const { offers: rows, total } = await listActiveOffers(filters, 1, 100);
  expect(total).toBe(rows.length);
  return rows.map((r) => r.title);
}

describe(`listing query (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    await database.db.delete(contactRequests);
    await database.db.delete(offers);
    await insertOffers(database.db, FIXTURES);
  });

  it("lists only active offers, newest first", async () => {
    expect(await titles({})).toEqual([
      "Boundary high",
      "Boundary",
      "Reference only",
      "Promo 100% Delta",
      "Ryzen Gamma",
      "Xeon Beta",
      "EPYC Alpha",
    ]);
  });

  it("filters by type", async () => {
    expect(await titles({ type: "loa" })).toEqual(["Promo 100% Delta", "Xeon Beta"]);
    expect(await titles({ type: "dedicated" })).not.toContain("Xeon Beta");
  });

  it("filters by price, bounds included", async () => {
    expect(await titles({ minPrice: 500 })).toEqual([
      "Boundary high",
      "Reference only",
      "EPYC Alpha",
    ]);
    expect(await titles({ maxPrice: 50 })).toEqual(["Boundary", "Xeon Beta"]);
    expect(await titles({ minPrice: 50, maxPrice: 69 })).toEqual(["Boundary", "Promo 100% Delta"]);
  });

  it("filters by engagement both ways", async () => {
    expect(await titles({ commitment: true })).toEqual([
      "Boundary high",
      "Promo 100% Delta",
      "EPYC Alpha",
    ]);
    expect(await titles({ commitment: false })).toEqual([
      "Boundary",
      "Reference only",
      "Ryzen Gamma",
      "Xeon Beta",
    ]);
  });

  it("searches title, reference and specifications, whatever the case and accents", async () => {
    expect(await titles({ searchTerm: "epyc" })).toEqual(["Reference only", "EPYC Alpha"]);
    expect(await titles({ searchTerm: "RYZEN" })).toEqual(["Ryzen Gamma"]);
    expect(await titles({ searchTerm: "ddr5" })).toEqual(["Ryzen Gamma"]);
    expect(await titles({ searchTerm: "xeon beta" })).toEqual(["Xeon Beta"]);
    expect(await titles({ searchTerm: "bêta XÉON" })).toEqual(["Xeon Beta"]);
    // Storage is searched since issue 42: every active offer here has NVMe disks.
    expect((await titles({ searchTerm: "nvme" })).length).toBe(7);
  });

  it("reads punctuation as a separator, never as a pattern", async () => {
    expect(await titles({ searchTerm: "100%" })).toEqual(["Promo 100% Delta"]);
    expect(await titles({ searchTerm: "promo_100" })).toEqual(["Promo 100% Delta"]);
    expect(await titles({ searchTerm: "%" })).toEqual([]);
    expect(await titles({ searchTerm: "_" })).toEqual([]);
    expect(await titles({ searchTerm: "x%y" })).toEqual([]);
    expect(await titles({ searchTerm: "'; drop table offers; --" })).toEqual([]);
  });

  it("combines every filter with AND", async () => {
    expect(
      await titles({
        searchTerm: "epyc",
        type: "dedicated",
        minPrice: 50,
        maxPrice: 600,
        commitment: false,
      }),
    ).toEqual(["Reference only"]);
    expect(await titles({ searchTerm: "epyc", type: "loa" })).toEqual([]);
  });

  it("pages the results and counts them all", async () => {
    const first = await listActiveOffers({}, 1, 3);
    const third = await listActiveOffers({}, 3, 3);
    expect(first.total).toBe(7);
    expect(first.offers.map((o) => o.title)).toEqual([
      "Boundary high",
      "Boundary",
      "Reference only",
    ]);
    expect(third.offers.map((o) => o.title)).toEqual(["EPYC Alpha"]);
  });

  it("finds an active offer by slug, never an inactive one", async () => {
    expect((await findActiveOfferBySlug("offre-1"))?.title).toBe("EPYC Alpha");
    expect(await findActiveOfferBySlug("offre-5")).toBeUndefined();
  });

  it("lists contact choices by title, active only", async () => {
    const choices = await listOfferChoices();
    expect(choices.map((c) => c.title)).toEqual([
      "Boundary",
      "Boundary high",
      "EPYC Alpha",
      "Promo 100% Delta",
      "Reference only",
      "Ryzen Gamma",
      "Xeon Beta",
    ]);
  });

  it("stores a contact request, with null phone and offer when empty, and null for an unknown offer", async () => {
    const [active] = await database.db
      .select()
      .from(offers)
      .where(sql`slug = 'offre-1'`);
    await createContactRequest({
      name: "A",
      email: "a@example.fr",
      phone: null,
      message: "m",
      offer: null,
    });
    await createContactRequest({
      name: "B",
      email: "b@example.fr",
      phone: "06 12",
      message: "m",
      offer: active.id,
    });
    await createContactRequest({
      name: "C",
      email: "c@example.fr",
      phone: null,
      message: "m",
      offer: 999999,
    });
    const rows = await database.db.select().from(contactRequests).orderBy(contactRequests.name);
    expect(rows.map((r) => [r.name, r.phone, r.offerId, r.status])).toEqual([
      ["A", null, null, "pending"],
      ["B", "06 12", active.id, "pending"],
      ["C", null, null, "pending"],
    ]);
  });

  it("keeps a contact request when its offer is deleted", async () => {
    const [active] = await database.db
      .select()
      .from(offers)
      .where(sql`slug = 'offre-1'`);
    await createContactRequest({
      name: "D",
      email: "d@example.fr",
      phone: null,
      message: "m",
      offer: active.id,
    });
    await database.db.delete(offers).where(sql`id = ${active.id}`);
    const rows = await database.db.select().from(contactRequests);
    expect(rows).toHaveLength(1);
    expect(rows[0].offerId).toBeNull();
  });

  it("loads the demo seed into an empty catalogue only, and reloads it idempotently", async () => {
    await database.db.delete(offers);
    expect(await seedIfEmpty(database.db)).toBe(true);
    expect(await seedIfEmpty(database.db)).toBe(false);
    const count = async () => (await database.db.select().from(offers)).length;
    const n = await count();
    expect(n).toBeGreaterThanOrEqual(12);
    await loadDemoOffers(database.db);
    expect(await count()).toBe(n);
    const all = await database.db.select().from(offers);
    expect(all.some((o) => !o.isActive)).toBe(true);
    expect(new Set(all.map((o) => o.type))).toEqual(new Set(["dedicated", "loa"]));
  });
});
