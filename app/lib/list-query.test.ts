import { describe, expect, it } from "vitest";
import { listSearch, queryFields } from "./list-query";

describe("listSearch", () => {
  it("keeps the parameters in order and leaves out empty values, false and page 1", () => {
    expect(listSearch([])).toBe("");
    expect(
      listSearch([
        ["q", "écran 4k"],
        ["type", undefined],
        ["min", 0],
        ["sort", false],
        ["owner", ""],
        ["page", 1],
      ]),
    ).toBe("?q=%C3%A9cran+4k&min=0");
    expect(listSearch([["page", 3]])).toBe("?page=3");
  });
});

describe("queryFields", () => {
  it("reads the first value of each key, leaving out the missing, the empty and the others", () => {
    const params = new URLSearchParams("q=a&q=b&status=&page=2&utm=x");
    expect(queryFields(params, ["q", "status", "page", "sort"])).toEqual({ q: "a", page: "2" });
  });
});
