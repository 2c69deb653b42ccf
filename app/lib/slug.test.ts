import { describe, expect, it } from "vitest";
import { SLUG_PATTERN, slugCandidate, slugify } from "./slug";

describe("slugify", () => {
  it.each([
    ["Serveur Dédié EPYC 7543", "serveur-dedie-epyc-7543"],
    ["Épique", "epique"],
    ["  Hello   World  ", "hello-world"],
    ["Offre -- spéciale !!", "offre-speciale"],
    ["Xeon E-2388G / 64 Go", "xeon-e-2388g-64-go"],
    ["Cœur & âme", "coeur-ame"],
    ["snake_case_title", "snake-case-title"],
    ["€€€", ""],
  ])("%s -> %s", (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it("produces slugs that match the slug pattern", () => {
    for (const t of ["Serveur Dédié EPYC 7543", "LOA — 36 mois", "Ryzen 9 7950X3D"]) {
      expect(slugify(t)).toMatch(SLUG_PATTERN);
    }
  });
});

describe("slugCandidate", () => {
  it("starts suffixes at 1", () => {
    expect(slugCandidate("abc", 0)).toBe("abc");
    expect(slugCandidate("abc", 1)).toBe("abc-1");
    expect(slugCandidate("abc", 2)).toBe("abc-2");
  });
});
