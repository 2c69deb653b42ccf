import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { OfferFilters, OfferSort } from "../../app/lib/offer-filters";
import { allOfferNumbers, OFFER_FORM_DEFAULTS } from "../../app/features/offers/offer-form";
import { parseOfferForm } from "../../app/features/offers/offer-form-schema";
import { loader as compareLoader } from "../../app/routes/public/compare";
import { createOffer, findOfferById, updateOffer } from "../../app/features/offers/offers.server";
import {
  findActiveOffersBySlugs,
  listActiveOffers,
  listFeaturedOffers,
} from "../../app/features/offers/offer-listing.server";
import { offers, type NewOffer } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { buildOffer, EMPTY_OFFER_NUMBERS, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

// Issue 13: sorting, numeric filters, featured offers and the comparison, on a real database.

const database = useTestDatabase();

// Created on day n: offer 8 is the newest. Prices with ties (100.00 three times).
const FIXTURES: NewOffer[] = [
  buildOffer(1, { price: "100.00", cpuCores: 8, ramGb: 64, featured: true }),
  buildOffer(2, { price: "49.99", cpuCores: 4, ramGb: 16 }),
  buildOffer(3, { price: "100.00", cpuCores: null, ramGb: null, featured: true }),
  buildOffer(4, { price: "1250.00", cpuCores: 32, ramGb: 256, type: "loa", loaMonths: 36 }),
  buildOffer(5, { price: "100.00", cpuCores: 16, ramGb: 128 }),
  buildOffer(6, { price: "10.00", cpuCores: 64, ramGb: 512, isActive: false, featured: true }),
  buildOffer(7, { price: "999.99", cpuCores: 16, ramGb: null, featured: true }),
  buildOffer(8, { price: "300.00", cpuCores: null, ramGb: 128, featured: true }),
];

async function slugs(filters: OfferFilters, sort: OfferSort = "newest") {
  const { offers: rows, total } = await listActiveOffers(filters, 1, 100, undefined, sort);
  expect(total).toBe(rows.length);
  return rows.map((r) => r.slug.replace("offre-", ""));
}

describe(`catalogue (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    await database.db.execute(sql`delete from contact_requests`);
    await database.db.delete(offers);
    await insertOffers(database.db, FIXTURES);
  });

  it("sorts newest first by default, then by price both ways with ties in a stable order", async () => {
    expect(await slugs({})).toEqual(["8", "7", "5", "4", "3", "2", "1"]);
    // Equal prices: by id, ascending one way and descending the other (the index's order).
    expect(await slugs({}, "price_asc")).toEqual(["2", "1", "3", "5", "8", "7", "4"]);
    expect(await slugs({}, "price_desc")).toEqual(["4", "7", "8", "5", "3", "1", "2"]);
  });

  it("keeps the order across pages: no offer twice, none missing", async () => {
    for (const sort of ["newest", "price_asc", "price_desc"] as const) {
      const all = await slugs({}, sort);
      const paged: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const { offers: rows } = await listActiveOffers({}, page, 2, undefined, sort);
        paged.push(...rows.map((r) => r.slug.replace("offre-", "")));
      }
      expect(paged, sort).toEqual(all);
    }
  });

  it("sorts within the filters", async () => {
    expect(await slugs({ maxPrice: 100 }, "price_desc")).toEqual(["5", "3", "1", "2"]);
    expect(await slugs({ minPrice: 100, coresMin: 8 }, "price_asc")).toEqual(["1", "5", "7", "4"]);
  });

  it("filters on RAM and cores, leaving out offers without the number", async () => {
    expect(await slugs({ ramMin: 128 })).toEqual(["8", "5", "4"]);
    expect(await slugs({ ramMin: 1 })).toEqual(["8", "5", "4", "2", "1"]);
    expect(await slugs({ coresMin: 16 })).toEqual(["7", "5", "4"]);
    expect(await slugs({ coresMin: 16, ramMin: 128 })).toEqual(["5", "4"]);
    expect(await slugs({ coresMin: 64 })).toEqual([]); // only the inactive offer has 64
    expect(await slugs({ ramMin: 256, type: "loa" })).toEqual(["4"]);
  });

  it("lists up to 3 active featured offers, newest first", async () => {
    expect((await listFeaturedOffers()).map((o) => o.slug)).toEqual([
      "offre-8",
      "offre-7",
      "offre-3",
    ]);
    expect((await listFeaturedOffers(10)).map((o) => o.slug)).toEqual([
      "offre-8",
      "offre-7",
      "offre-3",
      "offre-1",
    ]);
  });

  it("finds offers to compare in the order asked, active ones only", async () => {
    const found = await findActiveOffersBySlugs(["offre-4", "nope", "offre-6", "offre-1"]);
    expect(found.map((o) => o.slug)).toEqual(["offre-4", "offre-1"]);
    expect(found[0].loaMonths).toBe(36);
    expect(await findActiveOffersBySlugs([])).toEqual([]);
  });

  it("stores the numbers, setup fee and LOA terms from the form, and clears them", async () => {
    const form = {
      ...OFFER_FORM_DEFAULTS,
      title: "LOA chiffrée",
      reference: "LOA-N",
      cpu: "Xeon",
      ram: "128 Go",
      storage: "2 To",
      price: "412,50",
      type: "loa",
      cpuCores: "24",
      ramGb: "128",
      storageTb: "1,92",
      bandwidthGbps: "10",
      setupFee: "0",
      loaMonths: "36",
      loaPurchaseOption: "150",
    };
    const parsed = parseOfferForm(form);
    if (!parsed.success) throw new Error(parsed.message);
    const { id } = await createOffer(parsed.data);
    expect(await findOfferById(id)).toMatchObject({
      cpuCores: 24,
      ramGb: 128,
      storageTb: "1.92",
      bandwidthGbps: "10.00",
      setupFee: "0.00",
      loaMonths: 36,
      loaPurchaseOption: "150.00",
    });
    const cleared = parseOfferForm({ ...form, ...EMPTY_OFFER_NUMBERS });
    if (!cleared.success) throw new Error(cleared.message);
    await updateOffer(id, cleared.data);
    expect(await findOfferById(id)).toMatchObject(allOfferNumbers(null));
  });

  describe("comparison loader", () => {
    const context = { requestId: "test" };
    async function load(query: string) {
      try {
        const result = await compareLoader({
          request: new Request(`http://localhost/comparer${query}`),
          context,
          params: {},
        } as unknown as Parameters<typeof compareLoader>[0]);
        return { data: result };
      } catch (thrown) {
        if (thrown instanceof Response) {
          return { status: thrown.status, location: thrown.headers.get("Location") };
        }
        throw thrown;
      }
    }
    const shown = (r: Awaited<ReturnType<typeof load>>) =>
      "data" in r ? r.data!.offers.map((o) => o.slug) : r;

    it("shows the offers of a canonical address", async () => {
      const r = await load("?offres=offre-4,offre-1");
      expect(shown(r)).toEqual(["offre-4", "offre-1"]);
      // The same address with its commas percent-encoded: no redirect (it would loop).
      expect(shown(await load("?offres=offre-4%2Coffre-1"))).toEqual(["offre-4", "offre-1"]);
      expect("data" in r && r.data).toMatchObject({ ignored: 0, unavailable: 0 });
    });

    it("redirects the form's repeated parameter and other spellings to the one address", async () => {
      expect(await load("?offres=offre-4&offres=offre-1")).toEqual({
        status: 302,
        location: "/comparer?offres=offre-4,offre-1",
      });
      expect(await load("?offres=OFFRE-4,,offre-4,%3Cscript%3E&utm=x")).toEqual({
        status: 302,
        location: "/comparer?offres=offre-4",
      });
      expect(await load("?offres=")).toEqual({ status: 302, location: "/comparer" });
    });

    it("leaves out unknown and inactive offers and says how many", async () => {
      const r = await load("?offres=offre-6,inconnue,offre-2");
      expect(shown(r)).toEqual(["offre-2"]);
      expect("data" in r && r.data).toMatchObject({ unavailable: 2 });
    });

    it("compares 3 at most and says how many were ignored", async () => {
      const r = await load("?offres=offre-1,offre-2,offre-3,offre-4,offre-5");
      expect(shown(r)).toEqual(["offre-1", "offre-2", "offre-3"]);
      expect("data" in r && r.data).toMatchObject({ ignored: 2 });
    });

    it("answers an empty comparison for junk, never an error", async () => {
      for (const junk of [
        "",
        `?offres=${"a,".repeat(5_000)}`,
        "?offres=%27%20OR%201%3D1",
        "?offres[]=x",
      ]) {
        const r = await load(junk);
        if ("data" in r) expect(r.data!.offers, junk).toEqual([]);
        else expect(r.status, junk).toBe(302);
      }
    });
  });
});
