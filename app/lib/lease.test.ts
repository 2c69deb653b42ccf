import { describe, expect, it } from "vitest";
import {
  defaultDuration,
  leaseQuote,
  offeredDurations,
  readDuration,
  scaled,
  scalePrice,
  type LeaseScale,
} from "./offer-price";

const SCALE: LeaseScale = {
  rates: [
    { months: 24, coefficient: "0.04580" },
    { months: 36, coefficient: "0.03150" },
  ],
  purchaseOptionPercent: "1.5",
};

describe("lease", () => {
  it("reads decimals exactly", () => {
    expect(scaled("0.0315", 5)).toBe(3150);
    expect(scaled("1,5", 2)).toBe(150);
    expect(scaled("0.000001", 5)).toBeUndefined();
    expect(scaled("-1", 2)).toBeUndefined();
  });

  it("prices rent, purchase option and total", () => {
    // 12 000,00 € × 0,0315 = 378,00 €/mois; option 1,5 % = 180,00 €; 36 × 378 + 180 = 13 788 €.
    expect(leaseQuote(1_200_000, 36, SCALE)).toEqual({
      months: 36,
      monthly: 37_800,
      option: 18_000,
      total: 37_800 * 36 + 18_000,
    });
    // Rounded half up to the cent: 999,99 × 0,0458 = 45,799542 -> 45,80.
    expect(leaseQuote(99_999, 24, SCALE)?.monthly).toBe(4580);
    expect(leaseQuote(1_200_000, 48, SCALE)).toBeNull();
  });

  it("offers the durations both the offer and the scale allow", () => {
    const offered = offeredDurations([60, 36, 24], SCALE);
    expect(offered).toEqual([24, 36]);
    expect(readDuration(new URLSearchParams("duree=36"), offered)).toBe(36);
    expect(readDuration(new URLSearchParams("duree=60"), offered)).toBe(24);
    expect(readDuration(new URLSearchParams(""), offered, 36)).toBe(36);
  });

  it("shows an offer at its stated duration when offered, else the first offered", () => {
    expect(defaultDuration([24, 36], 36)).toBe(36);
    expect(defaultDuration([24, 36], 48)).toBe(24);
    expect(defaultDuration([24, 36], null)).toBe(24);
    expect(defaultDuration([], 36)).toBeUndefined();
  });

  it("prices a financed LOA offer at its default duration, and nothing else", () => {
    const offer = {
      type: "loa",
      financedAmount: "12000.00",
      leaseDurations: [24, 36, 48],
      loaMonths: 48,
    };
    // 48 months is not on the scale: 24 months, 12 000 × 0,0458 = 549,60.
    expect(scalePrice(offer, SCALE)).toMatchObject({ months: 24, monthly: 54_960 });
    expect(scalePrice({ ...offer, loaMonths: 36 }, SCALE)?.monthly).toBe(37_800);
    expect(scalePrice({ ...offer, financedAmount: null }, SCALE)).toBeNull();
    expect(scalePrice({ ...offer, type: "dedicated" }, SCALE)).toBeNull();
    expect(scalePrice({ ...offer, leaseDurations: [48] }, SCALE)).toBeNull();
  });
});
