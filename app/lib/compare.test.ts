import { describe, expect, it } from "vitest";
import { compareHref, parseComparedSlugs } from "./compare";

const parse = (qs: string) => parseComparedSlugs(new URLSearchParams(qs));

describe("parseComparedSlugs", () => {
  it("reads the comma-separated list in order", () => {
    expect(parse("offres=b,a,c")).toEqual({ slugs: ["b", "a", "c"], ignored: 0 });
  });
  it("reads the repeated parameter the form sends without JavaScript", () => {
    expect(parse("offres=epyc-64&offres=xeon-essentiel")).toEqual({
      slugs: ["epyc-64", "xeon-essentiel"],
      ignored: 0,
    });
  });
  it("drops repeats, malformed values and empty items", () => {
    expect(parse("offres=a,,a,%3Cscript%3E,../etc,A,%20b%20")).toEqual({
      slugs: ["a", "b"],
      ignored: 0,
    });
    expect(parse(`offres=${"x".repeat(201)}`)).toEqual({ slugs: [], ignored: 0 });
    expect(parse("")).toEqual({ slugs: [], ignored: 0 });
  });
  it("keeps the first three and counts the others", () => {
    expect(parse("offres=a,b,c,d,e,a")).toEqual({ slugs: ["a", "b", "c"], ignored: 2 });
  });
  it("reads a bounded number of values", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `s${i}`).join(",");
    expect(parse(`offres=${many}`)).toEqual({ slugs: ["s0", "s1", "s2"], ignored: 47 });
  });
});

describe("compareHref", () => {
  it("writes one canonical address", () => {
    expect(compareHref(["a", "b"])).toBe("/comparer?offres=a,b");
    expect(compareHref([])).toBe("/comparer");
  });
});
