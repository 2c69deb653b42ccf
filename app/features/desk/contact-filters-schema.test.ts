import { describe, expect, it } from "vitest";
import { contactFiltersToSearch } from "./contact-filters";
import { contactListPath, parseContactFilters } from "./contact-filters-schema";

const parse = (search: string) => parseContactFilters(new URLSearchParams(search));

describe("contact list filters", () => {
  it("reads every parameter", () => {
    expect(parse("q=dupont&status=in_progress&sort=oldest&page=3")).toEqual({
      filters: { q: "dupont", status: "in_progress", sort: "oldest" },
      page: 3,
    });
    expect(parse("status=spam").filters.status).toBe("spam");
  });

  it("drops junk instead of failing", () => {
    expect(parse("q=%20%20&status=archived&sort=random&page=-2&x=1")).toEqual({
      filters: { sort: "newest" },
      page: 1,
    });
    expect(parse("page=abc").page).toBe(1);
    expect(parse("page=0").page).toBe(1);
    expect(parse("page=99999999999999").page).toBe(1);
    expect(parse("q=a%00b").filters.q).toBe("a b");
    expect(parse(`q=${"x".repeat(500)}`).filters.q).toHaveLength(100);
  });

  it("gives one canonical address per view", () => {
    expect(contactFiltersToSearch({ sort: "newest" })).toBe("");
    expect(contactFiltersToSearch({ sort: "oldest", q: "a b", status: "pending" }, 2)).toBe(
      "?q=a+b&status=pending&sort=oldest&page=2",
    );
    const { filters, page } = parse("page=2&sort=oldest&q=a+b&status=pending");
    expect(contactFiltersToSearch(filters, page)).toBe("?q=a+b&status=pending&sort=oldest&page=2");
  });

  it("returns to the list only, whatever is posted", () => {
    expect(contactListPath("?status=pending&page=2")).toBe("/admin/contacts?status=pending&page=2");
    expect(contactListPath("//evil.example/")).toBe("/admin/contacts");
    expect(contactListPath("?next=https://evil.example")).toBe("/admin/contacts");
    expect(contactListPath(null)).toBe("/admin/contacts");
  });
});
