import { describe, expect, it } from "vitest";
import {
  buildTextIndex,
  foldText,
  searchIndex,
  suggestQuery,
  synonymGroups,
  withinOneEdit,
  words,
} from "./text-search";

const docs = [
  [
    { text: "EPYC 9354 — 64 cœurs", weight: 3 },
    { text: "AMD EPYC 9354\u001f512 GB DDR5", weight: 2 },
  ],
  [
    { text: "Serveurs dédiés Ryzen", weight: 3 },
    { text: "DED-RYZ-7950X", weight: 3 },
    { text: "AMD Ryzen 9 7950X\u001f128 GB", weight: 2 },
  ],
  [
    { text: "Promo_Été Xeon Gold", weight: 3 },
    { text: "Intel Xeon Gold 6338\u001f256 Go", weight: 2 },
    { text: "Idéal pour le calcul graphique", weight: 1 },
  ],
  [
    { text: "GPU L40S", weight: 3 },
    { text: "NVMe SSD 2 x 3,84 To", weight: 2 },
    { text: "Serveur avec une carte GPU pour l'IA", weight: 1 },
  ],
];
const index = buildTextIndex(docs);
const synonyms = synonymGroups([
  ["epic", "EPYC"],
  ["dédié", "dedicated"],
  ["go", "Go", "GB"],
  ["nvme", "NVMe SSD"],
  ["graphique", "GPU"],
  ["serveur dédié", "dedicated server"],
]);
const found = (query: string) => searchIndex(index, query, synonyms)?.map((m) => m.doc);

describe("text search", () => {
  it("folds accents, case and ligatures, and cuts names at their punctuation", () => {
    expect(foldText("Cœur ÉTÉ Æ")).toBe("coeur ete ae");
    expect(words("Promo_Été DED-RYZ-7950X serveurs réseaux")).toEqual([
      "promo",
      "ete",
      "ded",
      "ryz",
      "7950x",
      "serveur",
      "reseau",
    ]);
  });

  it("finds every word in any order, whatever the accents, plurals and punctuation", () => {
    expect(found("serveur dedie")).toEqual([1]);
    expect(found("ryzen serveurs dédiés")).toEqual([1]);
    expect(found("promo_ete")).toEqual([2]);
    expect(found("PROMO ÉTÉ gold xeon")).toEqual([2]);
    expect(found("ded-ryz-7950x")).toEqual([1]);
    expect(found("64 coeurs")).toEqual([0]);
  });

  it("matches a word it begins, and a long word one edit away", () => {
    expect(found("7950")).toEqual([1]);
    expect(found("xeo gol")).toEqual([2]);
    expect(found("ryzne")).toEqual([1]); // swapped letters
    expect(found("graphque")).toEqual([2]); // a letter missing (a typo is not widened further)
    expect(found("epik")).toEqual([]); // four letters: no edit allowed
  });

  it("widens a word to its synonyms, and a glued number to its unit", () => {
    expect(found("epic 64 coeurs")).toEqual([0]);
    expect(found("128 go")).toEqual([1]);
    expect(found("128go")).toEqual([1]);
    expect(found("256 gb")).toEqual([2]);
    expect(found("nvme")).toEqual([3]);
    expect(found("graphique")).toEqual([2, 3]);
  });

  it("requires every word", () => {
    expect(found("ryzen xeon")).toEqual([]);
    expect(found("")).toBeUndefined();
    expect(found(" -- ")).toBeUndefined();
  });

  it("scores a match in the title above one in the description", () => {
    const matches = searchIndex(index, "gpu", synonyms) ?? [];
    const score = (doc: number) => matches.find((m) => m.doc === doc)?.score ?? 0;
    expect(score(3)).toBeGreaterThan(score(2));
  });

  it("suggests the closest catalogue words when the query finds nothing", () => {
    expect(suggestQuery(index, "xoen gold", synonyms)).toBe("xeon gold");
    expect(suggestQuery(index, "ryzan", synonyms)).toBeUndefined(); // found by one edit already
    expect(suggestQuery(index, "ryzzenn", synonyms)).toBe("ryzen");
    expect(suggestQuery(index, "xeon", synonyms)).toBeUndefined();
    expect(suggestQuery(index, "zzzzzz", synonyms)).toBeUndefined();
  });

  it("tells one edit from two", () => {
    expect(withinOneEdit("xeon", "xeon")).toBe(true);
    expect(withinOneEdit("ryzen", "ryzne")).toBe(true);
    expect(withinOneEdit("ryzen", "ryze")).toBe(true);
    expect(withinOneEdit("ryzen", "ryzenn")).toBe(true);
    expect(withinOneEdit("ryzen", "rizan")).toBe(false);
  });
});

describe("text search: long synonym phrases", () => {
  it("finds a phrase of five words typed whole through its equivalent", () => {
    const loa = buildTextIndex([[{ text: "LOA PME", weight: 3 }], [{ text: "Xeon", weight: 3 }]]);
    const table = synonymGroups([["location avec option d'achat", "LOA"]]);
    expect(searchIndex(loa, "Location avec option d'achat", table)?.map((m) => m.doc)).toEqual([0]);
  });
});
