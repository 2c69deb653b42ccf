import { describe, expect, it } from "vitest";
import { pageSchema, searchTermSchema } from "./list-query-schema";

describe("pageSchema", () => {
  const page = pageSchema(40);
  it("reads digits, at least 1 and at most the last page", () => {
    expect(page.parse("3")).toBe(3);
    expect(page.parse(" 7 ")).toBe(7);
    expect(page.parse("0")).toBe(1);
    expect(page.parse("999")).toBe(40);
  });
  it("gives page 1 for anything else, never an error", () => {
    for (const bad of [undefined, "", "-2", "2.5", "0x10", "1e3", "deux", "1234567890"])
      expect(page.parse(bad)).toBe(1);
  });
});

describe("searchTermSchema", () => {
  it("clears what it cannot read instead of failing", () => {
    expect(searchTermSchema(20).parse(undefined)).toBeUndefined();
    expect(searchTermSchema(20).parse(42)).toBeUndefined();
  });
});
