import { describe, expect, it } from "vitest";
import { DEFAULT_CLAIMS, splitList } from "./site";

describe("site claims", () => {
  it("reads a list variable separated by semicolons", () => {
    expect(splitList(" Accès root ; Maintenance incluse;; ")).toEqual([
      "Accès root",
      "Maintenance incluse",
    ]);
    expect(splitList("")).toEqual([]);
  });

  it("promises nothing beyond the spec by default", () => {
    const text = JSON.stringify(DEFAULT_CLAIMS);
    for (const promise of [/Gbit/, /inclus/i, /garanti/i, /root/i, /lundi/i, /\d+h/, /NVMe/]) {
      expect(text).not.toMatch(promise);
    }
  });
});
