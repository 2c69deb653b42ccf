import { describe, expect, it } from "vitest";
import {
  configure,
  optionLines,
  parseOptionLines,
  readSelection,
  selectionParams,
} from "./offer-options";

const TEXT = `Mémoire | 128 Go inclus | 0 | 0
Mémoire | 256 Go | 40 | 0
Mémoire | 512 Go | 110,50 | 25
IPv4 supplémentaires | 0-16 | 2 | 5`;

describe("offer options", () => {
  it("reads groups, choices and a quantity from the typed lines, and writes them back", () => {
    const parsed = parseOptionLines(TEXT);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.groups).toEqual([
      {
        kind: "choice",
        label: "Mémoire",
        choices: [
          { label: "128 Go inclus", monthly: 0, setup: 0 },
          { label: "256 Go", monthly: 4000, setup: 0 },
          { label: "512 Go", monthly: 11050, setup: 2500 },
        ],
      },
      {
        kind: "quantity",
        label: "IPv4 supplémentaires",
        min: 0,
        max: 16,
        monthly: 200,
        setup: 500,
      },
    ]);
    expect(parseOptionLines(optionLines(parsed.groups))).toEqual(parsed);
  });

  it("refuses a malformed line with its number, in French", () => {
    expect(parseOptionLines("Mémoire | 256 Go | quarante")).toEqual({
      ok: false,
      message: "Options, ligne 1 : les montants sont des euros HT (ex. 40 ou 12,50).",
    });
    expect(parseOptionLines("\nseul")).toMatchObject({ ok: false, message: /ligne 2/ });
    expect(parseOptionLines("IPv4 | 16-0 | 1 | 1")).toMatchObject({ ok: false });
  });

  it("prices a selection: base plus supplements, per unit for a quantity", () => {
    const parsed = parseOptionLines(TEXT);
    if (!parsed.ok) throw new Error(parsed.message);
    const selection = readSelection(parsed.groups, new URLSearchParams("o0=1&o1=4"));
    expect(selection).toEqual([1, 4]);
    const config = configure({ price: "129.00", setupFee: "49.00" }, parsed.groups, selection);
    expect(config.monthly).toBe(12900 + 4000 + 800);
    expect(config.setup).toBe(4900 + 2000);
    expect(config.lines).toEqual([
      { group: "Mémoire", value: "256 Go", monthly: 4000, setup: 0 },
      { group: "IPv4 supplémentaires", value: "4", monthly: 800, setup: 2000 },
    ]);
    // Out-of-range values read as the default, which stays out of the canonical query.
    const fallback = readSelection(parsed.groups, new URLSearchParams("o0=9&o1=99"));
    expect(fallback).toEqual([0, 0]);
    expect(selectionParams(parsed.groups, fallback).toString()).toBe("");
    expect(selectionParams(parsed.groups, selection).toString()).toBe("o0=1&o1=4");
  });
});
