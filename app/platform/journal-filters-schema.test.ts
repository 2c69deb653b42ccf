import { describe, expect, it } from "vitest";
import { journalSearch, parseJournalFilters } from "./journal-filters-schema";

describe("journal filters", () => {
  it("reads the page's form and ignores what it does not know", () => {
    expect(
      parseJournalFilters(
        new URLSearchParams(
          "account=Admin@Example.fr&action=sign-in&from=2026-01-01&to=nope&page=3",
        ),
      ),
    ).toEqual({
      account: "admin@example.fr",
      action: "sign-in",
      from: "2026-01-01",
      to: undefined,
      page: 3,
    });
    expect(parseJournalFilters(new URLSearchParams("action=drop&page=-1"))).toEqual({
      account: undefined,
      action: undefined,
      from: undefined,
      to: undefined,
      page: 1,
    });
  });

  it("writes a view back as a query string", () => {
    expect(journalSearch({ action: "sign-in", page: 2 })).toBe("?action=sign-in&page=2");
    expect(journalSearch({ page: 1 })).toBe("");
  });
});
