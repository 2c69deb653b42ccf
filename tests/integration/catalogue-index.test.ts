import { count } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { OFFER_TYPES } from "../../app/lib/domain";
import { FACETS, type Facet } from "../../app/lib/offer-facets";
import { DELIVERY_STATES } from "../../app/lib/offer-fields";
import { OFFER_SORTS, type OfferFilters, type OfferSort } from "../../app/lib/offer-filters";
import {
  cardColumns,
  listActiveOffers,
  listingConditions,
  listingPageQuery,
} from "../../app/features/offers/offer-listing.server";
import { datacenters, offers, type NewOffer } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";
import { withChoice } from "../support/facets";

// The listing answers from the catalogue's index in memory (catalogue-index.ts); the API, from the
// SQL of listingConditions. Both must give the same offers, in the same order, with the same
// totals; each choice's count must be the total of the listing with that choice made.

const database = useTestDatabase();

const WORDS = ["EPYC", "Xeon", "Ryzen", "Éco", "mémoire", "100%", "a_b", "back\\slash", "ÆTHER"];

/** 90 offers with every kind of tie and gap: equal prices and dates, no numbers, no datacenter. */
function catalogue(): NewOffer[] {
  return Array.from({ length: 90 }, (_, i) =>
    buildOffer(i + 1, {
      title: `${WORDS[i % WORDS.length]} ${i % 7}`,
      reference: `REF-${i % 5 === 0 ? "X" : "Y"}-${i}`,
      cpu: i % 4 === 0 ? "AMD EPYC 7543" : "Intel Xeon E-2388G",
      ram: i % 6 === 0 ? "128 Go DDR5" : "64 Go",
      type: OFFER_TYPES[i % OFFER_TYPES.length],
      engagement: i % 3 === 0,
      delivery: DELIVERY_STATES[i % DELIVERY_STATES.length],
      datacenter: [null, "paris", "roubaix"][i % 3],
      // Equal prices, prices between two euros, whole euros at the filters' bounds.
      price: ["49.00", "49.50", "50.00", "120.99", "500.00", "500.01"][i % 6],
      ramGb: i % 5 === 0 ? null : [32, 64, 128][i % 3],
      cpuCores: i % 7 === 0 ? null : [8, 16, 64][i % 3],
      // Offers created at the same instant: the id decides.
      createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 20))),
      isActive: i % 11 !== 0,
    }),
  );
}

const STATES: OfferFilters[] = [
  {},
  { type: "loa" },
  { commitment: true, location: "paris" },
  { availableNow: true, minPrice: 50 },
  { maxPrice: 500, ramMin: 64 },
  { minPrice: 49, maxPrice: 49 },
  { coresMin: 16, type: "dedicated", commitment: false },
  { location: "nowhere" },
  ...["epyc", "EPYC", "éco", "ÉCO", "mÉmoire", "100%", "%", "_", "a_b", "\\", "æther", "y-1", "zz"]
    .map((searchTerm) => ({ searchTerm }))
    .flatMap((f) => [f, { ...f, minPrice: 50, location: "roubaix" }]),
];

/** The SQL's answer: the page's slugs and the total (offer-api.server.ts runs the same). */
async function bySql(filters: OfferFilters, page: number, size: number, sort: OfferSort) {
  const rows = await listingPageQuery(filters, page, size, database.db, sort);
  const [{ total }] = await database.db
    .select({ total: count() })
    .from(offers)
    .where(listingConditions(filters));
  return { slugs: rows.map((r) => r.slug), total };
}

const CHOICES: Record<Facet, (string | undefined)[]> = {
  type: [undefined, ...OFFER_TYPES],
  engagement: [undefined, "yes", "no"],
  location: [undefined, "paris", "roubaix"],
  available: [undefined, "1"],
};

describe(`the listing from the catalogue's index (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    await database.db.insert(datacenters).values([
      { code: "paris", name: "Paris" },
      { code: "roubaix", name: "Roubaix" },
    ]);
    await insertOffers(database.db, catalogue());
  });

  it("lists the offers the SQL lists, in its order, page by page, with its total", async () => {
    let compared = 0;
    for (const filters of STATES)
      for (const sort of OFFER_SORTS)
        for (const page of [1, 4]) {
          const listed = await listActiveOffers(filters, page, 7, undefined, sort);
          const expected = await bySql(filters, page, 7, sort);
          expect(
            { slugs: listed.offers.map((o) => o.slug), total: listed.total },
            `${JSON.stringify(filters)} ${sort} ${page}`,
          ).toEqual(expected);
          compared += expected.slugs.length;
        }
    // The states are not all empty: searches with and without matches, and full pages.
    expect(compared).toBeGreaterThan(500);
  });

  it("counts each choice as the listing with that choice made", async () => {
    for (const filters of STATES) {
      const { counts } = await listActiveOffers(filters, 1, 1);
      for (const facet of FACETS)
        for (const value of CHOICES[facet]) {
          const { total } = await bySql(withChoice(filters, facet, value), 1, 1, "newest");
          const counted =
            value === undefined ? counts.facets[facet].all : (counts.facets[facet].by[value] ?? 0);
          expect(counted, `${JSON.stringify(filters)} ${facet}=${value}`).toBe(total);
        }
    }
  });

  it("gives each card the card's fields only (no search text or ranks)", async () => {
    const {
      offers: [card],
    } = await listActiveOffers({ searchTerm: "epyc" }, 1, 1);
    expect(Object.keys(card).sort()).toEqual(Object.keys(cardColumns).sort());
  });
});
