import { describe, expect, it } from "vitest";
import {
  amount,
  formatCents,
  formatEuros,
  formatMonthlyPrice,
  perMonth,
  loaTotal,
  monthlyAlternativeLabel,
  monthlyLabel,
  monthlyParts,
  setupFeeLabel,
  toCents,
  ttcCents,
  type Pricing,
} from "./money";

const normalize = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");
const HT: Pricing = { vatRate: 20, display: "ht" };
const TTC: Pricing = { vatRate: 20, display: "ttc" };

describe("toCents", () => {
  it("reads stored and typed amounts exactly", () => {
    expect(toCents("899.99")).toBe(89_999);
    expect(toCents("0.1")).toBe(10);
    expect(toCents("1890")).toBe(189_000);
    expect(toCents("0.00")).toBe(0);
    expect(toCents(412.5)).toBe(41_250);
    expect(toCents("1000000.00")).toBe(100_000_000);
  });
  it("refuses what is not an amount", () => {
    expect(() => toCents("-1")).toThrow(RangeError);
    expect(() => toCents("1.234")).toThrow(RangeError);
    expect(() => toCents("abc")).toThrow(RangeError);
  });
});

describe("ttcCents", () => {
  it("adds the VAT rounded half up to the cent", () => {
    expect(ttcCents(89_999, 20)).toBe(107_999); // 179,998 c of VAT -> 180 €
    expect(ttcCents(1, 20)).toBe(1); // 0.2 c
    expect(ttcCents(3, 20)).toBe(4); // 0.6 c
    expect(ttcCents(25, 20)).toBe(30); // exactly 5 c
    expect(ttcCents(10, 5.5)).toBe(11); // 0.55 c rounds up
    expect(ttcCents(1_000, 5.5)).toBe(1_055);
    expect(ttcCents(12_345, 0)).toBe(12_345);
  });
  it("is exact where floats are not", () => {
    // 0.1 + 0.2 style: 19.99 € * 1.2 = 23.987999... in floats
    expect(ttcCents(toCents("19.99"), 20)).toBe(2_399);
    expect(ttcCents(toCents("1000000.00"), 20)).toBe(120_000_000);
  });
});

describe("labels", () => {
  it("shows HT first by default, TTC as the alternative", () => {
    expect(normalize(monthlyLabel("899.99", HT))).toBe("899,99 € HT/mois");
    expect(normalize(monthlyAlternativeLabel("899.99", HT))).toBe("soit 1 079,99 € TTC/mois");
  });
  it("splits the main figure for a large amount and a small suffix", () => {
    const parts = monthlyParts("899.99", HT);
    expect({ ...parts, amount: normalize(parts.amount) }).toEqual({
      amount: "899,99 €",
      suffix: "HT/mois",
    });
    expect(monthlyParts("899.99", TTC).suffix).toBe("TTC/mois");
  });
  it("shows TTC first for a consumer site", () => {
    expect(normalize(monthlyLabel("899.99", TTC))).toBe("1 079,99 € TTC/mois");
    expect(normalize(monthlyAlternativeLabel("899.99", TTC))).toBe("soit 899,99 € HT/mois");
  });
  it("formats cents the French way", () => {
    expect(normalize(formatCents(123_456_789))).toBe("1 234 567,89 €");
    expect(normalize(formatCents(0))).toBe("0,00 €");
  });
  it("words the setup fee", () => {
    expect(setupFeeLabel(null, HT)).toBeNull();
    expect(setupFeeLabel("0.00", HT)).toBe("Mise en service offerte");
    expect(normalize(setupFeeLabel("49.00", HT) ?? "")).toBe(
      "Frais de mise en service : 49,00 € HT",
    );
    expect(normalize(setupFeeLabel("49.00", TTC) ?? "")).toBe(
      "Frais de mise en service : 58,80 € TTC",
    );
  });
});

describe("loaTotal", () => {
  it("is the rents plus the option, HT and as invoiced TTC", () => {
    // 36 x 412.50 + 150.00 = 15,000.00 HT; 36 x 495.00 + 180.00 = 18,000.00 TTC
    expect(loaTotal("412.50", 36, "150.00", HT)).toEqual({ ht: 1_500_000, ttc: 1_800_000 });
    expect(loaTotal("219.00", 24, null, HT)).toEqual({ ht: 525_600, ttc: 630_720 });
  });
  it("sums the TTC of each invoice, not the VAT of the total", () => {
    // 0.03 HT -> 0.04 TTC per month (0.6 c of VAT rounded up): 3 months = 0.12 TTC, not 0.11.
    expect(loaTotal("0.03", 3, "0.00", HT)).toEqual({ ht: 9, ttc: 12 });
    expect(amount("0.09", HT)).toEqual({ ht: 9, ttc: 11 });
  });
});

describe("euros and months", () => {
  it("formats stored amounts and numbers the French way with two decimals", () => {
    expect(normalize(formatEuros("899.99"))).toBe("899,99 €");
    expect(normalize(formatEuros(49))).toBe("49,00 €");
    expect(normalize(formatEuros("1299.5"))).toBe("1 299,50 €");
  });
  it("writes the monthly suffix in one place", () => {
    expect(perMonth("12,00 € HT")).toBe("12,00 € HT/mois");
    expect(normalize(formatMonthlyPrice("899.99"))).toBe("899,99 €/mois");
    expect(normalize(monthlyLabel("899.99", HT))).toBe("899,99 € HT/mois");
  });
});
