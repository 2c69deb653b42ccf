import { describe, expect, it } from "vitest";
import { AVAILABLE_NOW } from "./offer-fields";
import { OFFER_TYPES } from "./domain";
import { DELIVERY_STATES } from "./offer-fields";
import { choiceLabel, FACETS, facetCounts, selectedChoice, type FacetCell } from "./offer-facets";
import type { OfferFilters } from "./offer-filters";
import { withChoice } from "../../tests/support/facets";

const DATACENTERS = ["paris", "roubaix", null] as const;

/** Every combination of the select fields, with a count that varies (some zero-less gaps). */
function cells(): FacetCell[] {
  const out: FacetCell[] = [];
  let n = 0;
  for (const type of OFFER_TYPES)
    for (const engagement of [true, false])
      for (const delivery of DELIVERY_STATES)
        for (const datacenter of DATACENTERS) {
          n += 1;
          if (n % 5 === 0) continue; // a combination no offer has
          out.push({
            type,
            engagement,
            delivery,
            datacenter,
            // 49.00 (whole), 49.50 and 500.50 (between two euros), with and without numbers.
            priceFloor: [49, 49, 500][n % 3],
            priceCeil: [49, 50, 501][n % 3],
            ramGb: n % 4 === 0 ? null : 64 * (n % 3),
            cpuCores: n % 5 === 0 ? null : 8 * (n % 4),
            count: (n % 4) + 1,
          });
        }
  return out;
}

/** The same question asked offer by offer: how many pass these filters. */
function brute(all: FacetCell[], filters: OfferFilters): number {
  return all
    .filter(
      (c) =>
        (!filters.type || c.type === filters.type) &&
        (filters.commitment === undefined || c.engagement === filters.commitment) &&
        (!filters.location || c.datacenter === filters.location) &&
        (!filters.availableNow || AVAILABLE_NOW.includes(c.delivery)) &&
        // The SQL's price >= min and price <= max, on the cell's price range.
        (filters.minPrice === undefined || c.priceFloor! >= filters.minPrice) &&
        (filters.maxPrice === undefined || c.priceCeil! <= filters.maxPrice) &&
        (filters.ramMin === undefined || (c.ramGb != null && c.ramGb >= filters.ramMin)) &&
        (filters.coresMin === undefined || (c.cpuCores != null && c.cpuCores >= filters.coresMin)),
    )
    .reduce((sum, c) => sum + c.count, 0);
}

const FILTER_STATES: OfferFilters[] = [
  {},
  { type: "loa" },
  { commitment: true },
  { location: "paris", availableNow: true },
  { type: "dedicated", commitment: false, location: "roubaix", availableNow: true },
  { location: "nowhere" },
  { minPrice: 50 },
  { maxPrice: 50, type: "loa" },
  { minPrice: 49, maxPrice: 500, commitment: true },
  { ramMin: 64, coresMin: 16, availableNow: true },
];

const CHOICES: Record<string, string[]> = {
  type: [...OFFER_TYPES],
  engagement: ["yes", "no"],
  location: ["paris", "roubaix"],
  available: ["1"],
};

describe("facetCounts", () => {
  it("gives each choice what the listing would list with that choice and the other filters", () => {
    const all = cells();
    for (const filters of FILTER_STATES) {
      const counts = facetCounts(all, filters);
      expect(counts.total).toBe(brute(all, filters));
      for (const facet of FACETS) {
        expect(counts.facets[facet].all).toBe(brute(all, withChoice(filters, facet, undefined)));
        for (const value of CHOICES[facet]) {
          expect(counts.facets[facet].by[value] ?? 0).toBe(
            brute(all, withChoice(filters, facet, value)),
          );
        }
      }
    }
  });

  it("leaves the ranges to the database for a search's cells (without prices and numbers)", () => {
    const cell = {
      type: "loa",
      engagement: true,
      delivery: "stock_24h",
      datacenter: "paris",
      count: 3,
    } as const;
    const counts = facetCounts([cell], { minPrice: 900, ramMin: 512, type: "loa" });
    expect([counts.total, counts.facets.type.all, counts.facets.location.by.paris]).toEqual([
      3, 3, 3,
    ]);
  });

  it("counts nothing without cells", () => {
    const counts = facetCounts([], { type: "loa" });
    expect(counts.total).toBe(0);
    expect(counts.facets.type).toEqual({ all: 0, by: {} });
  });

  it("reads the chosen value of each facet as the URL writes it", () => {
    const filters: OfferFilters = {
      type: "loa",
      commitment: false,
      location: "paris",
      availableNow: true,
    };
    expect(FACETS.map((facet) => selectedChoice(filters, facet))).toEqual([
      "loa",
      "no",
      "paris",
      "1",
    ]);
    expect(FACETS.map((facet) => selectedChoice({}, facet))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("writes a choice with its count", () => {
    expect(choiceLabel("Paris", 4)).toBe("Paris (4)");
    expect(choiceLabel("Tous", 0)).toBe("Tous (0)");
    expect(choiceLabel("Paris", undefined)).toBe("Paris");
  });
});
