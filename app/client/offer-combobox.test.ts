import { describe, expect, it } from "vitest";
import { arrowTarget, choiceLabel, comboboxResult, GENERAL_CHOICE } from "./offer-combobox";
import { choiceOf } from "./offer-choice";

const epyc = { id: "7", title: "EPYC 64", reference: "EP-64", price: "899,99 €/mois" };

describe("comboboxResult", () => {
  it("lists the general request first, then the offers, with the summary", () => {
    const result = comboboxResult({
      offers: [{ ...epyc, id: 7 }],
      more: false,
      summary: "1 offre trouvée",
    });
    expect(result).toEqual({
      choices: [GENERAL_CHOICE, epyc],
      message: "1 offre trouvée",
      cacheable: true,
    });
  });

  it("says the server's error and keeps it out of the cache", () => {
    expect(comboboxResult({ error: "Trop long" })).toEqual({
      choices: [GENERAL_CHOICE],
      message: "Trop long",
      cacheable: false,
    });
  });
});

describe("choiceLabel", () => {
  it("reads 'Title (Reference)', or the general request", () => {
    expect(choiceLabel(epyc)).toBe("EPYC 64 (EP-64)");
    expect(choiceLabel(GENERAL_CHOICE)).toBe("Demande générale");
  });
});

describe("arrowTarget", () => {
  const closed = { open: false, active: -1, count: 4, altKey: false };
  const open = { ...closed, open: true };

  it("opens a closed list on the first option, none with Alt, or the last going up", () => {
    expect(arrowTarget("ArrowDown", closed)).toBe(0);
    expect(arrowTarget("ArrowDown", { ...closed, altKey: true })).toBe(-1);
    expect(arrowTarget("ArrowUp", closed)).toBe(3);
  });

  it("moves in an open list and stops at its ends", () => {
    expect(arrowTarget("ArrowDown", { ...open, active: 1 })).toBe(2);
    expect(arrowTarget("ArrowDown", { ...open, active: 3 })).toBe(3);
    expect(arrowTarget("ArrowUp", { ...open, active: 2 })).toBe(1);
    expect(arrowTarget("ArrowUp", { ...open, active: 0 })).toBe(0);
    expect(arrowTarget("ArrowUp", open)).toBe(3);
  });
});

describe("choiceOf", () => {
  const element = (value: string, attributes: Record<string, string>) => ({
    value,
    getAttribute: (name: string) => attributes[name] ?? null,
  });

  it("reads the offer the server wrote in data-* attributes, as written", () => {
    const option = element("7", {
      "data-title": "EPYC 64",
      "data-reference": "EP-64",
      "data-price": "899,99 €/mois",
    });
    expect(choiceOf(option)).toEqual(epyc);
  });

  it("is null for the general request or no element", () => {
    expect(choiceOf(element("", {}))).toBeNull();
    expect(choiceOf(null)).toBeNull();
  });
});
