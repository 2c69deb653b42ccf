// One price per offer (issue 39, decision 038). An offer's displayed price lives in its columns
// `price` (monthly HT), `loa_purchase_option` and `priced_months`: typed by the administrator, except
// for an LOA offer with a financed amount, whose columns the server writes from the `Barème LOA`
// (priceColumns, on every save of the offer or of the scale). Every surface reads them through
// offerPrice, or reads `price` itself where only the monthly amount is shown (card, sort, filters,
// feed, selector): SQL and the catalogue's index sort and filter the same number.

import { scalePrice, type LeaseQuote, type LeaseScale, type LeaseSource } from "./lease";
import { centsText, formatCents, formatEuros, perMonth } from "./money";

/** The columns that hold an offer's displayed price. */
export type PriceColumns = {
  price: string;
  loaPurchaseOption: string | null;
  /** The duration the rent in `price` is for (an LOA offer priced by the scale), else null. */
  pricedMonths: number | null;
};

/**
 * What the server writes into an offer's price columns with `scale` in force: the rent, option and
 * duration of an LOA offer priced by the scale; the typed price and option of any other. Null when
 * there is no price to write: a financed LOA offer none of whose durations the scale prices.
 */
export function priceColumns(
  offer: LeaseSource & { price: string | null; loaPurchaseOption: string | null },
  scale: LeaseScale,
): PriceColumns | null {
  if (offer.type === "loa" && offer.financedAmount !== null) {
    const quote = scalePrice(offer, scale);
    return quote && columnsOf(quote);
  }
  if (offer.price === null) return null;
  return { price: offer.price, loaPurchaseOption: offer.loaPurchaseOption, pricedMonths: null };
}

/** A row about to be inserted (columns left out take their defaults), as priceColumns reads it. */
export function newOfferPriceSource(row: {
  type?: "dedicated" | "loa";
  price: string;
  financedAmount?: string | null;
  leaseDurations?: number[] | null;
  loaMonths?: number | null;
  loaPurchaseOption?: string | null;
}) {
  return {
    type: row.type ?? "dedicated",
    price: row.price,
    financedAmount: row.financedAmount ?? null,
    leaseDurations: row.leaseDurations ?? null,
    loaMonths: row.loaMonths ?? null,
    loaPurchaseOption: row.loaPurchaseOption ?? null,
  };
}

const columnsOf = (quote: LeaseQuote): PriceColumns => ({
  price: centsText(quote.monthly),
  loaPurchaseOption: centsText(quote.option),
  pricedMonths: quote.months,
});

/** The columns an offer's displayed price is read from (a full offer row fits). */
export type PricedOffer = {
  type: "dedicated" | "loa";
  price: string;
  loaMonths: number | null;
  loaPurchaseOption: string | null;
  /** Absent in what was kept before it existed (a quote's snapshot): the stated duration counts. */
  pricedMonths?: number | null;
};

export type OfferPrice = {
  /** Monthly HT as stored ('409.50'). */
  monthly: string;
  /** An LOA's duration and purchase option HT, when its duration is known. */
  lease: { months: number; purchaseOption: string | null } | null;
};

/** The offer's displayed price: what the card, page, API, mail and quote all show. */
export function offerPrice(offer: PricedOffer): OfferPrice {
  const months = offer.pricedMonths ?? offer.loaMonths;
  return {
    monthly: offer.price,
    lease:
      offer.type === "loa" && months ? { months, purchaseOption: offer.loaPurchaseOption } : null,
  };
}

const decimalComma = (text: string) => text.replace(".", ",");

/**
 * Where an LOA offer's price comes from, for the administrator: 'Loyer calculé : montant financé
 * 13 000,00 € × coefficient 36 mois (0,03150) = 409,50 € HT/mois ; option d'achat 1,50 % =
 * 195,00 € HT.' Null for an offer the scale does not price.
 */
export function scalePriceExplanation(offer: LeaseSource, scale: LeaseScale): string | null {
  const quote = scalePrice(offer, scale);
  if (!quote || offer.financedAmount === null) return null;
  const coefficient = scale.rates.find((r) => r.months === quote.months)?.coefficient ?? "";
  return (
    `Loyer calculé : montant financé ${formatEuros(offer.financedAmount)} HT × coefficient ` +
    `${quote.months} mois du barème (${decimalComma(coefficient)}) = ` +
    `${perMonth(`${formatCents(quote.monthly)} HT`)} ; option d'achat ` +
    `${decimalComma(scale.purchaseOptionPercent)} % = ${formatCents(quote.option)} HT.`
  );
}

const typedNumber = (text: string) => text.replace(/[\s\u00a0\u202f€]/g, "").replace(",", ".");

/**
 * The admin form's lease fields as typed ('13 000,00', '24, 36'), read as the scale needs them, so
 * that the form shows the price the save will write; what it cannot read counts as empty.
 */
export function typedLeaseSource(typed: {
  type: string;
  financedAmount: string;
  leaseDurations: string;
  loaMonths: string;
}): LeaseSource {
  const financed = typedNumber(typed.financedAmount);
  const months = typedNumber(typed.loaMonths);
  return {
    type: typed.type,
    financedAmount: /^\d{1,9}(?:\.\d{1,2})?$/.test(financed) ? Number(financed).toFixed(2) : null,
    leaseDurations: typed.leaseDurations
      .split(/[\s,;]+/)
      .filter(Boolean)
      .map(Number),
    loaMonths: /^\d{1,3}$/.test(months) ? Number(months) : null,
  };
}
