import { describe, expect, it } from "vitest";
import type { LeaseScale } from "./offer-price";
import { offerPrice, priceColumns, scalePriceExplanation, typedLeaseSource } from "./offer-price";

const SCALE: LeaseScale = {
  rates: [
    { months: 24, coefficient: "0.04580" },
    { months: 36, coefficient: "0.03150" },
    { months: 48, coefficient: "0.02480" },
  ],
  purchaseOptionPercent: "1.50",
};

/** The demo's `LOA PME 36 mois`, with the price and option once typed beside its financing. */
const PME = {
  type: "loa",
  price: "412.50",
  loaPurchaseOption: "150.00",
  financedAmount: "13000.00",
  leaseDurations: [24, 36, 48],
  loaMonths: 36,
};

describe("priceColumns", () => {
  it("gives a financed LOA offer the rent and option of its stated duration", () => {
    expect(priceColumns(PME, SCALE)).toEqual({
      price: "409.50",
      loaPurchaseOption: "195.00",
      pricedMonths: 36,
    });
  });

  it("falls back to the first offered duration the scale prices", () => {
    expect(priceColumns({ ...PME, loaMonths: 60 }, SCALE)?.pricedMonths).toBe(24);
    expect(priceColumns({ ...PME, loaMonths: null }, SCALE)?.price).toBe("595.40");
    const without24 = { ...SCALE, rates: SCALE.rates.slice(1) };
    expect(priceColumns({ ...PME, loaMonths: 24 }, without24)?.pricedMonths).toBe(36);
  });

  it("has no price for a financed offer none of whose durations is priced", () => {
    expect(priceColumns({ ...PME, leaseDurations: [60] }, SCALE)).toBeNull();
    expect(priceColumns({ ...PME, leaseDurations: null }, SCALE)).toBeNull();
  });

  it("keeps what was typed for any other offer", () => {
    expect(priceColumns({ ...PME, financedAmount: null }, SCALE)).toEqual({
      price: "412.50",
      loaPurchaseOption: "150.00",
      pricedMonths: null,
    });
    const dedicated = { ...PME, type: "dedicated", loaMonths: null, loaPurchaseOption: null };
    expect(priceColumns(dedicated, SCALE)?.price).toBe("412.50");
    expect(priceColumns({ ...dedicated, price: null }, SCALE)).toBeNull();
  });
});

describe("offerPrice", () => {
  it("reads the LOA's duration from the priced months before the stated one", () => {
    const stored = { type: "loa" as const, price: "595.40", loaPurchaseOption: "195.00" };
    expect(offerPrice({ ...stored, loaMonths: 60, pricedMonths: 24 })).toEqual({
      monthly: "595.40",
      lease: { months: 24, purchaseOption: "195.00" },
    });
    expect(offerPrice({ ...stored, loaMonths: 12, pricedMonths: null }).lease?.months).toBe(12);
    expect(offerPrice({ ...stored, loaMonths: null }).lease).toBeNull();
    expect(offerPrice({ ...stored, type: "dedicated", loaMonths: 12 }).lease).toBeNull();
  });
});

describe("scalePriceExplanation", () => {
  it("says where the price comes from, in French", () => {
    expect(scalePriceExplanation(PME, SCALE)?.replace(/[\u202f\u00a0]/g, " ")).toBe(
      "Loyer calculé : montant financé 13 000,00 € HT × coefficient 36 mois du barème (0,03150) = 409,50 € HT/mois ; option d'achat 1,50 % = 195,00 € HT.",
    );
    expect(scalePriceExplanation({ ...PME, financedAmount: null }, SCALE)).toBeNull();
  });
});

describe("typedLeaseSource", () => {
  it("reads the form's fields as typed, what it cannot read as empty", () => {
    expect(
      typedLeaseSource({
        type: "loa",
        financedAmount: "13 000,5 €",
        leaseDurations: "24, 36;48",
        loaMonths: " 36 ",
      }),
    ).toEqual({
      type: "loa",
      financedAmount: "13000.50",
      leaseDurations: [24, 36, 48],
      loaMonths: 36,
    });
    expect(
      typedLeaseSource({
        type: "loa",
        financedAmount: "beaucoup",
        leaseDurations: "",
        loaMonths: "x",
      }),
    ).toEqual({ type: "loa", financedAmount: null, leaseDurations: [], loaMonths: null });
  });
});
