import { describe, expect, it } from "vitest";
import {
  hasActiveFilters,
  likePattern,
  MAX_CORES_FILTER,
  MAX_PRICE_FILTER,
  MAX_RAM_FILTER,
  filterFormPath,
  offerFiltersToSearch,
  offerListingPath,
  parseOfferFilters,
} from "./offer-filters";

const parse = (qs: string) => parseOfferFilters(new URLSearchParams(qs));

describe("parseOfferFilters", () => {
  it("starts empty", () => {
    expect(parse("")).toEqual({ filters: {}, page: 1, sort: "newest" });
  });

  it("reads the datacenter and availability filters, and writes them back", () => {
    const { filters } = parse("location=Paris&available=1");
    expect(filters).toEqual({ location: "paris", availableNow: true });
    expect(offerFiltersToSearch(filters)).toBe("?location=paris&available=1");
    expect(parse("location=%3Cscript%3E&available=yes").filters).toEqual({});
  });

  it("reads prices as integers", () => {
    expect(parse("min=50&max=499.99").filters).toEqual({ minPrice: 50, maxPrice: 499 });
    expect(parse("min=12,7").filters).toEqual({ minPrice: 12 });
  });

  it("clears a filter given an empty value", () => {
    expect(parse("q=&type=&min=&max=&engagement=").filters).toEqual({});
    expect(parse("q=%20%20").filters).toEqual({});
  });

  it("treats 'all' as no filter", () => {
    expect(parse("type=all&engagement=all").filters).toEqual({});
  });

  it("maps engagement yes/no to true/false", () => {
    expect(parse("engagement=yes").filters).toEqual({ commitment: true });
    expect(parse("engagement=no").filters).toEqual({ commitment: false });
  });

  it("keeps known types only", () => {
    expect(parse("type=dedicated").filters).toEqual({ type: "dedicated" });
    expect(parse("type=loa").filters).toEqual({ type: "loa" });
    expect(parse("type=DROP TABLE").filters).toEqual({});
  });

  it("ignores malformed, negative and enormous numbers safely", () => {
    expect(parse("min=abc&max=-5").filters).toEqual({});
    expect(parse("min=1e400").filters).toEqual({});
    expect(parse("max=99999999999999999999999").filters).toEqual({ maxPrice: MAX_PRICE_FILTER });
  });

  it("trims the search term, strips control characters and caps its length", () => {
    expect(parse("q=%20EPYC%00%20").filters).toEqual({ searchTerm: "EPYC" });
    expect(parse(`q=${"a".repeat(500)}`).filters.searchTerm).toHaveLength(100);
  });

  it("reads the page, defaulting to 1", () => {
    expect(parse("page=3").page).toBe(3);
    expect(parse("page=0").page).toBe(1);
    expect(parse("page=x").page).toBe(1);
  });

  it("reads the numeric spec filters, 0 meaning any", () => {
    expect(parse("ram_min=64&cores_min=16").filters).toEqual({ ramMin: 64, coresMin: 16 });
    expect(parse("ram_min=0&cores_min=0").filters).toEqual({});
    expect(parse("ram_min=-8&cores_min=huit").filters).toEqual({});
    expect(parse("ram_min=99999999999").filters).toEqual({ ramMin: MAX_RAM_FILTER });
    expect(parse("cores_min=99999999999").filters).toEqual({ coresMin: MAX_CORES_FILTER });
  });

  it("reads the order, newest by default", () => {
    expect(parse("sort=price_asc").sort).toBe("price_asc");
    expect(parse("sort=price_desc").sort).toBe("price_desc");
    expect(parse("sort=newest").sort).toBe("newest");
    expect(parse("sort=price").sort).toBe("newest");
    expect(parse("sort=").sort).toBe("newest");
    // The order is not a filter: clearing the filters keeps it.
    expect(parse("sort=price_asc").filters).toEqual({});
  });

  it("ignores unknown parameters", () => {
    expect(parse("foo=bar&utm_source=x").filters).toEqual({});
  });
});

describe("offerFiltersToSearch", () => {
  it("round-trips through the URL", () => {
    const filters = {
      searchTerm: "epyc",
      type: "dedicated" as const,
      minPrice: 50,
      maxPrice: 500,
      commitment: false,
    };
    const search = offerFiltersToSearch(filters, 2);
    expect(search).toBe("?q=epyc&type=dedicated&min=50&max=500&engagement=no&page=2");
    expect(parse(search.slice(1))).toEqual({ filters, page: 2, sort: "newest" });
    expect(offerFiltersToSearch({})).toBe("");
  });

  it("writes every filter, the order and the page in one canonical order", () => {
    const filters = { type: "loa" as const, ramMin: 64, coresMin: 8, maxPrice: 900 };
    const search = offerFiltersToSearch(filters, 3, "price_desc");
    expect(search).toBe("?type=loa&max=900&ram_min=64&cores_min=8&sort=price_desc&page=3");
    expect(parse(search.slice(1))).toEqual({ filters, page: 3, sort: "price_desc" });
    // The default order stays out of the address: one URL per result.
    expect(offerFiltersToSearch({}, 1, "newest")).toBe("");
    expect(offerFiltersToSearch({}, 1, "price_asc")).toBe("?sort=price_asc");
  });
});

describe("offerListingPath", () => {
  it("is /offers with the canonical query", () => {
    expect(offerListingPath({})).toBe("/offers");
    expect(offerListingPath({ type: "loa" }, 2, "price_asc")).toBe(
      "/offers?type=loa&sort=price_asc&page=2",
    );
  });
});

describe("filterFormPath", () => {
  const path = (qs: string) => filterFormPath(new URLSearchParams(qs));

  it("leads to the canonical address of the form's fields, empty and 'Tous' left out", () => {
    expect(path("q=&type=all&min=&max=&ram_min=&cores_min=&engagement=all&sort=newest")).toBe(
      "/offers",
    );
    expect(path("q=+EPYC+&type=loa&min=50&max=499.99&engagement=no&sort=price_desc")).toBe(
      "/offers?q=EPYC&type=loa&min=50&max=499&engagement=no&sort=price_desc",
    );
  });

  it("writes what the server would redirect to: 0 as any, the fields' order ignored", () => {
    expect(path("ram_min=0&cores_min=8")).toBe("/offers?cores_min=8");
    expect(path("sort=price_asc&max=900&type=dedicated")).toBe(
      "/offers?type=dedicated&max=900&sort=price_asc",
    );
  });

  it("keeps 'all' typed in the search box as a search term", () => {
    expect(path("q=all&type=all")).toBe("/offers?q=all");
  });

  it("goes back to the first page", () => {
    expect(path("type=loa&page=4")).toBe("/offers?type=loa");
  });
});

describe("hasActiveFilters", () => {
  it("is true as soon as one filter is set", () => {
    expect(hasActiveFilters({})).toBe(false);
    expect(hasActiveFilters({ minPrice: 0 })).toBe(true);
    expect(hasActiveFilters({ commitment: false })).toBe(true);
  });
});

describe("likePattern", () => {
  it("escapes wildcards", () => {
    expect(likePattern("100%")).toBe("%100\\%%");
    expect(likePattern("a_b")).toBe("%a\\_b%");
    expect(likePattern("a\\b")).toBe("%a\\\\b%");
  });
});
