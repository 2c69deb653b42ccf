import { describe, expect, it } from "vitest";
import { offerTerms } from "./offer-price";

const normalize = (value: unknown) =>
  JSON.parse(JSON.stringify(value).replace(/[\u202f\u00a0]/g, " ")) as unknown;

type Offer = Parameters<typeof offerTerms>[0];
const HT = { vatRate: 20, display: "ht" } as const;
const TTC = { vatRate: 20, display: "ttc" } as const;

describe("offerTerms", () => {
  it.each<[string, Offer, typeof HT | typeof TTC, unknown]>([
    [
      "gives a dedicated server's monthly price and setup fee",
      {
        type: "dedicated",
        price: "899.99",
        setupFee: "49.00",
        loaMonths: null,
        loaPurchaseOption: null,
      },
      HT,
      {
        monthly: "899,99 € HT",
        monthlyOther: "1 079,99 € TTC",
        setupFee: "Frais de mise en service : 49,00 € HT",
        setupFeeValue: "49,00 € HT",
        loa: null,
      },
    ],
    [
      "gives an LOA's duration, option and total cost, HT and TTC",
      {
        type: "loa",
        price: "412.50",
        setupFee: "0.00",
        loaMonths: 36,
        loaPurchaseOption: "150.00",
      },
      HT,
      {
        monthly: "412,50 € HT",
        monthlyOther: "495,00 € TTC",
        setupFee: "Mise en service offerte",
        setupFeeValue: "Offerte",
        loa: {
          duration: "36 mois",
          purchaseOption: "150,00 € HT (soit 180,00 € TTC)",
          total: "15 000,00 € HT (soit 18 000,00 € TTC)",
        },
      },
    ],
    [
      "puts TTC first for a consumer site and leaves out what is not stated",
      { type: "loa", price: "100.00", setupFee: null, loaMonths: 12, loaPurchaseOption: null },
      TTC,
      {
        monthly: "120,00 € TTC",
        monthlyOther: "100,00 € HT",
        setupFee: null,
        setupFeeValue: null,
        loa: {
          duration: "12 mois",
          purchaseOption: null,
          total: "1 440,00 € TTC (soit 1 200,00 € HT)",
        },
      },
    ],
  ])("%s", (_name, offer, pricing, expected) => {
    expect(normalize(offerTerms(offer, pricing))).toEqual(expected);
  });

  it("gives no total for an LOA without its duration", () => {
    expect(
      offerTerms(
        { type: "loa", price: "1.00", setupFee: null, loaMonths: null, loaPurchaseOption: "5.00" },
        HT,
      ).loa,
    ).toBeNull();
  });
});
