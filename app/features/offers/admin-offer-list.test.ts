import { describe, expect, it } from "vitest";
import { adminOfferListPath, withReturnTo } from "./admin-offer-list";
import { parseAdminOfferList, safeOfferListReturn } from "./admin-offer-list-schema";

const parse = (query: string) => parseAdminOfferList(new URLSearchParams(query));

describe("admin offer list state", () => {
  it("reads every parameter and writes them back canonically", () => {
    const state = parse("page=3&status=inactive&type=loa&q=%20EPYC%20");
    expect(state).toEqual({ q: "EPYC", type: "loa", status: "inactive", page: 3 });
    expect(adminOfferListPath(state)).toBe("/admin/offers?q=EPYC&type=loa&status=inactive&page=3");
    expect(adminOfferListPath(state, 1)).toBe("/admin/offers?q=EPYC&type=loa&status=inactive");
    expect(adminOfferListPath(parse(""))).toBe("/admin/offers");
  });

  it("drops junk instead of failing", () => {
    expect(parse("page=-2&type=vps&status=yes&q=%00%00")).toEqual({ page: 1 });
    expect(parse("page=abc")).toEqual({ page: 1 });
    expect(parse("page=0").page).toBe(1);
    expect(parse("page=99999999999").page).toBe(1);
    expect(parse(`q=${"x".repeat(500)}`).q).toHaveLength(100);
    expect(parse("q=a&q=b").q).toBe("a");
  });

  it("adds returnTo only when the list is not the plain first page", () => {
    expect(withReturnTo("/admin/offers/7", "/admin/offers")).toBe("/admin/offers/7");
    expect(withReturnTo("/admin/offers/new?from=7", "/admin/offers?page=2")).toBe(
      "/admin/offers/new?from=7&returnTo=%2Fadmin%2Foffers%3Fpage%3D2",
    );
  });
});

describe("safeOfferListReturn", () => {
  it("keeps a list address, rebuilt from its parsed query", () => {
    expect(safeOfferListReturn("/admin/offers?page=2&q=ram")).toBe("/admin/offers?q=ram&page=2");
    expect(safeOfferListReturn("/admin/offers?q=100%25_x")).toBe("/admin/offers?q=100%25_x");
    expect(safeOfferListReturn("/admin/offers?page=2&evil=1&type=bad")).toBe(
      "/admin/offers?page=2",
    );
  });

  it("never leads anywhere else", () => {
    for (const value of [
      undefined,
      null,
      42,
      "",
      "/admin/offers",
      "//evil.example/admin/offers?page=2",
      "https://evil.example/admin/offers?page=2",
      "/admin/offers/../../logout?x=1",
      "/admin/offersx?page=2",
      "/admin/contacts?page=2",
      "/\\evil.example",
      "javascript:alert(1)",
      `/admin/offers?q=${"a".repeat(2000)}`,
    ]) {
      expect(safeOfferListReturn(value), String(value)).toBe("/admin/offers");
    }
  });
});
