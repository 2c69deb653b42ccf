import { beforeAll, describe, expect, it } from "vitest";
import { AVAILABLE_NOW } from "../../app/lib/offer-fields";
import type { Pricing } from "../../app/lib/money";
import { OFFER_TYPES } from "../../app/lib/domain";
import { FACETS, type Facet } from "../../app/lib/offer-facets";
import { DELIVERY_STATES } from "../../app/lib/offer-fields";
import { OFFER_SORTS, type OfferFilters, type OfferSort } from "../../app/lib/offer-filters";
import { listApiOffers } from "../../app/features/offers/offer-api.server";
import { searchOfferChoices } from "../../app/features/offers/offer-choices.server";
import {
  cardColumns,
  LISTING_PAGE_SIZE,
  listActiveOffers,
} from "../../app/features/offers/offer-listing.server";
import { seedLeaseScale } from "../../app/features/offers/lease.server";
import { datacenters, type NewOffer } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";
import { withChoice } from "../support/facets";

// One listing engine (issue 43): the catalogue's index answers the listing page, /api/offers and
// the contact form's offer search. Its answers are checked here against the spec's rules written
// out plainly over the rows inserted (an ASCII search: the database lowers anything else, checked
// by hand below), and the API against the page.

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

type Row = NewOffer & { id: number };
let rows: Row[] = [];

/** A text's words as a buyer's search compares them (issue 42): folded, cut at punctuation. */
const wordsOf = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/æ/g, "ae")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * Issue 42's rule on these rows' words (no plural, synonym or typo among STATES' terms): every
 * word of the query begins a word of the offer (a word of one character is the whole word); a
 * query without a word finds nothing.
 */
function searchMatches(row: Row, term: string): boolean {
  const offerWords = wordsOf(
    [row.title, row.reference, row.cpu, row.ram, row.storage, row.description].join(" "),
  );
  const queryWords = wordsOf(term);
  return (
    queryWords.length > 0 &&
    queryWords.every((q) => offerWords.some((w) => (q.length === 1 ? w === q : w.startsWith(q))))
  );
}

/** Spec section 7 over the rows themselves: active offers, the filters with AND, in `sort`. */
function expected(filters: OfferFilters, sort: OfferSort): Row[] {
  const term = filters.searchTerm;
  const atLeast = (value: number | null | undefined, min: number | undefined) =>
    min === undefined || (value !== null && value !== undefined && value >= min);
  const matching = rows.filter(
    (row) =>
      row.isActive &&
      (term === undefined || searchMatches(row, term)) &&
      (filters.type === undefined || row.type === filters.type) &&
      (filters.commitment === undefined || row.engagement === filters.commitment) &&
      (filters.location === undefined || row.datacenter === filters.location) &&
      (!filters.availableNow || AVAILABLE_NOW.includes(row.delivery!)) &&
      (filters.minPrice === undefined || Number(row.price) >= filters.minPrice) &&
      (filters.maxPrice === undefined || Number(row.price) <= filters.maxPrice) &&
      atLeast(row.ramGb, filters.ramMin) &&
      atLeast(row.cpuCores, filters.coresMin),
  );
  const byPrice = (a: Row, b: Row) => Number(a.price) - Number(b.price) || a.id - b.id;
  if (sort === "price_asc") return matching.sort(byPrice);
  if (sort === "price_desc") return matching.sort((a, b) => byPrice(b, a));
  return matching.sort((a, b) => b.createdAt!.getTime() - a.createdAt!.getTime() || b.id - a.id);
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
  ...["epyc", "EPYC", "100%", "%", "_", "a_b", "\\", "y-1", "zz", "xeon 64", "éco 3"]
    .map((searchTerm) => ({ searchTerm }))
    .flatMap((f) => [f, { ...f, minPrice: 50, location: "roubaix" }]),
];

const CHOICES: Record<Facet, (string | undefined)[]> = {
  type: [undefined, ...OFFER_TYPES],
  engagement: [undefined, "yes", "no"],
  location: [undefined, "paris", "roubaix"],
  available: [undefined, "1"],
};

const API = { baseUrl: "https://example.fr", pricing: { vatRate: 20, display: "ht" } as Pricing };

describe(`the one listing engine (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    await database.db.insert(datacenters).values([
      { code: "paris", name: "Paris" },
      { code: "roubaix", name: "Roubaix" },
    ]);
    await seedLeaseScale(database.db);
    const rowsIn = catalogue();
    const inserted = await insertOffers(database.db, rowsIn);
    rows = rowsIn.map((row, i) => ({ ...row, id: inserted[i].id }));
  });

  it("lists the spec's offers in each order, page by page, with their total", async () => {
    let compared = 0;
    for (const filters of STATES)
      for (const sort of OFFER_SORTS)
        for (const page of [1, 4]) {
          const listed = await listActiveOffers(filters, page, 7, undefined, sort);
          const all = expected(filters, sort);
          if (filters.searchTerm !== undefined && sort === "newest") {
            // By relevance (issue 42): the same offers, in an order of their own.
            const whole = await listActiveOffers(filters, 1, 1000, undefined, sort);
            expect(new Set(whole.offers.map((o) => o.slug))).toEqual(
              new Set(all.map((row) => row.slug)),
            );
            expect(listed.total).toBe(all.length);
            continue;
          }
          const slugs = all.slice((page - 1) * 7, page * 7).map((row) => row.slug);
          expect(
            { slugs: listed.offers.map((o) => o.slug), total: listed.total },
            `${JSON.stringify(filters)} ${sort} ${page}`,
          ).toEqual({ slugs, total: all.length });
          compared += slugs.length;
        }
    // The states are not all empty: searches with and without matches, and full pages.
    expect(compared).toBeGreaterThan(400);
  });

  it("lowers a search term as the database does, accents included", async () => {
    const titles = async (searchTerm: string) =>
      (await listActiveOffers({ searchTerm }, 1, 100)).offers.map((o) => o.title.split(" ")[0]);
    for (const term of ["éco", "ÉCO", "Éco"]) {
      expect(new Set(await titles(term)), term).toEqual(new Set(["Éco"]));
    }
    expect(new Set(await titles("mÉmoire"))).toEqual(new Set(["mémoire"]));
    expect(new Set(await titles("æther"))).toEqual(new Set(["ÆTHER"]));
  });

  it("counts each choice as the listing with that choice made", async () => {
    for (const filters of STATES) {
      const { counts } = await listActiveOffers(filters, 1, 1);
      for (const facet of FACETS)
        for (const value of CHOICES[facet]) {
          const total = expected(withChoice(filters, facet, value), "newest").length;
          const counted =
            value === undefined ? counts.facets[facet].all : (counts.facets[facet].by[value] ?? 0);
          expect(counted, `${JSON.stringify(filters)} ${facet}=${value}`).toBe(total);
        }
    }
  });

  it("answers the API with the page's offers, order and total", async () => {
    for (const filters of STATES.slice(0, 12))
      for (const sort of OFFER_SORTS)
        for (const page of [1, 2, 5]) {
          const listed = await listActiveOffers(filters, page, LISTING_PAGE_SIZE, undefined, sort);
          const api = await listApiOffers({ filters, page, sort }, API);
          const what = `${JSON.stringify(filters)} ${sort} ${page}`;
          expect(
            api.offers.map((o) => o.slug),
            what,
          ).toEqual(listed.offers.map((o) => o.slug));
          expect(api.total, what).toBe(listed.total);
          expect(api.pageCount, what).toBe(Math.max(1, Math.ceil(listed.total / 24)));
        }
  });

  it("answers the contact form's offer search with the listing's search, bounded", async () => {
    const search = (term: string, limit = 100) =>
      searchOfferChoices(term, limit).then(({ offers, more }) => ({
        titles: offers.map((o) => o.title),
        more,
      }));
    for (const term of ["epyc", "ref-x-5", "100%", "a_b", "éco", "xeon 64", "zz"]) {
      const found = await search(term);
      const titles = expected({ searchTerm: term }, "newest").map((row) => row.title);
      expect(found.titles.sort(), term).toEqual(titles.sort());
    }
    // Titles first: 'epyc' is in every EPYC title and in some cpus.
    const epyc = await search("epyc");
    const inTitle = epyc.titles.filter((t) => t.startsWith("EPYC")).length;
    expect(epyc.titles.slice(0, inTitle).every((t) => t.startsWith("EPYC"))).toBe(true);
    expect(await search("éco", 3)).toEqual({ titles: expect.any(Array), more: true });
    expect(await search("zz")).toEqual({ titles: [], more: false });
  });

  it("gives each card the card's fields only (no search text or ranks)", async () => {
    const {
      offers: [card],
    } = await listActiveOffers({ searchTerm: "epyc" }, 1, 1);
    expect(Object.keys(card).sort()).toEqual(Object.keys(cardColumns).sort());
  });
});
