import { describe, expect, it } from "vitest";
import {
  filterMatcher,
  indexCatalogue,
  listFromIndex,
  searchTitles,
  suggestSearch,
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
    doc: n - 1,
    search: [{ text: `offre ${n}`, weight: 3 }],
    card: { slug: `offre-${n}` },
    ...fields,
  };
}

/** Searchable fields: title and reference (weight 3), specifications (2), description (1). */
const fields = (title: string, specs = "", description = "") => [
  { text: title, weight: 3 },
  { text: specs, weight: 2 },
  { text: description, weight: 1 },
];

const INDEX = indexCatalogue(
  [
    offer(1, { priceRank: 3, titleRank: 4, type: "loa", search: fields("EPYC Alpha") }),
    offer(2, {
      priceRank: 1,
      titleRank: 2,
      priceFloor: 49,
      priceCeil: 50,
      search: fields("Xeon Beta", "", "Pour remplacer un EPYC"),
    }),
    offer(3, {
      priceRank: 4,
      titleRank: 1,
      datacenter: "paris",
      ramGb: null,
      search: fields("Gamma REF-3", "AMD EPYC 7543 64 Go"),
    }),
    offer(4, { priceRank: 2, titleRank: 3, delivery: "sold_out", search: fields("Ryzen Delta") }),
  ],
  [["epic", "EPYC"]],
);

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

  it("searches every field with the synonyms, the title before the specifications and the description, and counts within the search", () => {
    const found = list({ searchTerm: "epic" }, { query: "epic" });
    expect(slugs(found)).toEqual(["1", "3", "2"]);
    expect(found.counts.facets.type.by).toEqual({ loa: 1, dedicated: 2 });
    // A chosen order is kept for the matches.
    expect(slugs(list({}, { query: "epyc", sort: "price_asc" }))).toEqual(["2", "1", "3"]);
    expect(slugs(list({}, { query: "--" }))).toEqual([]);
  });

  it("answers the contact form's offer field with the same search, by relevance then title", () => {
    expect(searchTitles(INDEX, "epyc", 10).offers.map((o) => o.slug)).toEqual([
      "offre-1",
      "offre-3",
      "offre-2",
    ]);
    expect(searchTitles(INDEX, "ref-3", 10).offers.map((o) => o.slug)).toEqual(["offre-3"]);
    expect(searchTitles(INDEX, "epyc", 1)).toEqual({ offers: [{ slug: "offre-1" }], more: true });
    expect(searchTitles(INDEX, "epyc", 3).more).toBe(false);
  });

  it("proposes a close query that finds offers when the query finds none", () => {
    expect(suggestSearch(INDEX, "gamnna")).toBe("gamma"); // two edits: not found, proposed
    expect(suggestSearch(INDEX, "gamma")).toBeUndefined();
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
