import { describe, expect, it } from "vitest";
import { OFFER_SEARCH, offerSearchSummary, parseOfferSearchTerm } from "./offer-search";

describe("parseOfferSearchTerm", () => {
  it("treats absent and blank terms as no search", () => {
    expect(parseOfferSearchTerm(null)).toEqual({ status: "empty" });
    expect(parseOfferSearchTerm(undefined)).toEqual({ status: "empty" });
    expect(parseOfferSearchTerm("   ")).toEqual({ status: "empty" });
  });

  it("trims and collapses spaces", () => {
    expect(parseOfferSearchTerm("  epyc   7543 ")).toEqual({ status: "ok", term: "epyc 7543" });
  });

  it("asks for more than one character", () => {
    expect(parseOfferSearchTerm("e")).toEqual({ status: "short", term: "e" });
    expect(parseOfferSearchTerm("é")).toEqual({ status: "short", term: "é" });
    expect(parseOfferSearchTerm("ép")).toEqual({ status: "ok", term: "ép" });
  });

  it("refuses long terms and control characters with a French message", () => {
    const long = parseOfferSearchTerm("x".repeat(OFFER_SEARCH.maxLength + 1));
    expect(long).toEqual({
      status: "invalid",
      message: `La recherche ne doit pas dépasser ${OFFER_SEARCH.maxLength} caractères.`,
    });
    expect(parseOfferSearchTerm("ep\u0000yc")).toEqual({
      status: "invalid",
      message: "La recherche contient des caractères non autorisés.",
    });
    // U+001F separates the fields of search_text: it must never reach the pattern.
    expect(parseOfferSearchTerm("a\u001fb").status).toBe("invalid");
  });

  it("keeps LIKE wildcards as text (escaped later, in the query)", () => {
    expect(parseOfferSearchTerm("100%_x")).toEqual({ status: "ok", term: "100%_x" });
  });
});

describe("offerSearchSummary", () => {
  it("words the count like the listing, and says when results are cut", () => {
    expect(offerSearchSummary(0, false)).toBe("Aucune offre ne correspond à votre recherche.");
    expect(offerSearchSummary(1, false)).toBe("1 offre trouvée");
    expect(offerSearchSummary(7, false)).toBe("7 offres trouvées");
    expect(offerSearchSummary(20, true)).toBe(
      "Plus de 20 offres trouvées : précisez votre recherche.",
    );
  });
});
