import { describe, expect, it } from "vitest";
import {
  compareHref,
  compareStatusText,
  parseComparedSlugs,
  readStoredSelection,
  toggleSelection,
} from "./compare";

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

describe("compareStatusText", () => {
  it("says nothing without a selection, asks for a second offer, tells the maximum", () => {
    expect(compareStatusText(0)).toBe("");
    expect(compareStatusText(1)).toBe("1 offre sélectionnée : cochez-en une autre pour comparer.");
    expect(compareStatusText(2)).toBe("2 offres sélectionnées.");
    expect(compareStatusText(3)).toBe("3 offres sélectionnées (3 au plus).");
    expect(compareStatusText(2, 2)).toBe("2 offres sélectionnées (2 au plus).");
  });
});

describe("readStoredSelection", () => {
  it("keeps the stored slugs up to the maximum", () => {
    expect(readStoredSelection('["a","b"]')).toEqual(["a", "b"]);
    expect(readStoredSelection('["a","b","c","d"]')).toEqual(["a", "b", "c"]);
    expect(readStoredSelection('["a",1,null,"b"]')).toEqual(["a", "b"]);
  });
  it("reads nothing from an empty, malformed or foreign value", () => {
    expect(readStoredSelection(null)).toEqual([]);
    expect(readStoredSelection("{")).toEqual([]);
    expect(readStoredSelection('{"a":1}')).toEqual([]);
  });
});

describe("toggleSelection", () => {
  it("adds a checked box at the end, once, within the maximum", () => {
    expect(toggleSelection(["a"], "b", true)).toEqual(["a", "b"]);
    expect(toggleSelection(["a", "b"], "a", true)).toEqual(["a", "b"]);
    expect(toggleSelection(["a", "b", "c"], "d", true)).toEqual(["a", "b", "c"]);
  });
  it("removes an unchecked box", () => {
    expect(toggleSelection(["a", "b", "c"], "b", false)).toEqual(["a", "c"]);
    expect(toggleSelection(["a"], "z", false)).toEqual(["a"]);
  });
});
