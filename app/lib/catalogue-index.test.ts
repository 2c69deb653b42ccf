import { describe, expect, it } from "vitest";
import {
  filterMatcher,
  indexCatalogue,
  listFromIndex,
  searchTitles,
  type IndexedOffer,
} from "./catalogue-index";
import { facetCounts } from "./offer-facets";

type Card = { slug: string };

/** Offer n, newest first by n; its price and title ranks given (as the database sorts them). */
function offer(
  n: number,
  fields: Partial<IndexedOffer<Card>> & { priceRank: number; titleRank: number },
) {
  return {
    type: "dedicated" as const,
    engagement: false,
    delivery: "stock_24h" as const,
    datacenter: null,
    priceFloor: 100,
    priceCeil: 100,
    ramGb: 64,
    cpuCores: 8,
    count: 1 as const,
    searchText: `offre ${n}`,
    card: { slug: `offre-${n}` },
    ...fields,
  };
}

const INDEX = indexCatalogue([
  offer(1, { priceRank: 3, titleRank: 4, type: "loa", searchText: "epyc alpha" }),
  offer(2, { priceRank: 1, titleRank: 2, priceFloor: 49, priceCeil: 50, searchText: "xeon beta" }),
  offer(3, {
    priceRank: 4,
    titleRank: 1,
    datacenter: "paris",
    ramGb: null,
    // search_text: title, reference, cpu, ram, separated by chr(31).
    searchText: "gamma\u001fref-3\u001fepyc 7543\u001f64 go",
  }),
  offer(4, { priceRank: 2, titleRank: 3, delivery: "sold_out", searchText: "ryzen delta" }),
]);

const slugs = (result: { offers: Card[] }) => result.offers.map((o) => o.slug.slice(6));
const list = (filters = {}, options = {}) =>
  listFromIndex(INDEX, filters, { page: 1, pageSize: 10, sort: "newest", ...options });

describe("the catalogue's index", () => {
  it("lists in each order: newest as given, prices by rank, descending as its exact reverse", () => {
    expect(slugs(list())).toEqual(["1", "2", "3", "4"]);
    expect(slugs(list({}, { sort: "price_asc" }))).toEqual(["2", "4", "1", "3"]);
    expect(slugs(list({}, { sort: "price_desc" }))).toEqual(["3", "1", "4", "2"]);
  });

  it("pages the matches, the total and counts over all of them", () => {
    const second = list({ type: "dedicated" }, { page: 2, pageSize: 2 });
    expect(slugs(second)).toEqual(["4"]);
    expect(second.total).toBe(3);
    expect(second.counts.facets.type.by).toEqual({ dedicated: 3, loa: 1 });
    expect(slugs(list({}, { page: 3, pageSize: 2 }))).toEqual([]);
  });

  it("searches the lower-cased text for the needle, and counts within the search", () => {
    const found = list({ searchTerm: "EPYC" }, { needle: "epyc" });
    expect(slugs(found)).toEqual(["1", "3"]);
    expect(found.counts.facets.type.by).toEqual({ loa: 1, dedicated: 1 });
  });

  it("searches titles and references only, by title, for the contact form's offer field", () => {
    // Offer 3 has epyc in its cpu only: the offer search leaves it out, the listing finds it.
    expect(searchTitles(INDEX, "epyc", 10).offers.map((o) => o.slug)).toEqual(["offre-1"]);
    expect(searchTitles(INDEX, "ref-3", 10).offers.map((o) => o.slug)).toEqual(["offre-3"]);
    expect(searchTitles(INDEX, "a", 10).offers.map((o) => o.slug)).toEqual([
      "offre-3",
      "offre-2",
      "offre-4",
      "offre-1",
    ]);
    expect(searchTitles(INDEX, "a", 2)).toEqual({
      offers: [{ slug: "offre-3" }, { slug: "offre-2" }],
      more: true,
    });
    expect(searchTitles(INDEX, "a", 4).more).toBe(false);
  });

  it("applies ranges and choices as the SQL does: an offer without the number is left out", () => {
    expect(slugs(list({ maxPrice: 50 }))).toEqual(["2"]);
    expect(slugs(list({ ramMin: 1 }))).toEqual(["1", "2", "4"]);
    expect(slugs(list({ availableNow: true, location: "paris" }))).toEqual(["3"]);
    const matches = filterMatcher({ type: "loa", commitment: false });
    expect(INDEX.newest.filter(matches).map((o) => o.card.slug)).toEqual(["offre-1"]);
  });

  it("takes the counts the caller keeps instead of counting again", () => {
    const kept = facetCounts(INDEX.newest, {});
    const result = list({}, {});
    expect(listFromIndex(INDEX, {}, { page: 1, pageSize: 1, sort: "newest" }, kept).counts).toBe(
      kept,
    );
    expect(result.counts).toEqual(kept);
  });
});
