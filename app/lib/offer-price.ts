// One price per offer (issue 39, decision 038). An offer's displayed price lives in its columns
// `price` (monthly HT), `loa_purchase_option` and `priced_months`: typed by the administrator, except
// for an LOA offer with a financed amount, whose columns the server writes from the `Barème LOA`
// (priceColumns, on every save of the offer or of the scale). Every surface reads them through
// offerPrice, or reads `price` itself where only the monthly amount is shown (card, sort, filters,
// feed, selector): SQL and the catalogue's index sort and filter the same number.

import {
  amount,
  centsText,
  formatAmount,
  formatCents,
  formatEuros,
  loaTotal,
  otherBasis,
  perMonth,
  setupFeeLabel,
  toCents,
  type Pricing,
} from "./money";

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

/** What an offer's terms need (a full offer row fits). Amounts HT as stored. */
export type OfferTermsSource = PricedOffer & { setupFee: string | null };

export type OfferTerms = {
  /** The monthly price, '899,99 € HT' (the figure PRICE_DISPLAY puts first). */
  monthly: string;
  /** '1 079,99 € TTC' (the other one). */
  monthlyOther: string;
  /** 'Frais de mise en service : 49,00 € HT', 'Mise en service offerte', or null when not stated. */
  setupFee: string | null;
  /** The same for a table cell: '49,00 € HT', 'Offerte', or null. */
  setupFeeValue: string | null;
  /** LOA only, when its duration is known. */
  loa: { duration: string; purchaseOption: string | null; total: string } | null;
};

const both = (value: { ht: number; ttc: number }, pricing: Pricing) =>
  `${formatAmount(value, pricing.display)} (soit ${formatAmount(value, otherBasis(pricing.display))})`;

/** The amounts a buyer reads on the offer and comparison pages, in one wording. */
export function offerTerms(offer: OfferTermsSource, pricing: Pricing): OfferTerms {
  const price = offerPrice(offer);
  const monthly = amount(price.monthly, pricing);
  const fee = offer.setupFee === null ? null : amount(offer.setupFee, pricing);
  const other = otherBasis(pricing.display);
  const lease = price.lease;
  const loa = lease
    ? {
        duration: `${lease.months} mois`,
        purchaseOption:
          lease.purchaseOption === null
            ? null
            : both(amount(lease.purchaseOption, pricing), pricing),
        total: both(loaTotal(price.monthly, lease.months, lease.purchaseOption, pricing), pricing),
      }
    : null;
  return {
    monthly: formatAmount(monthly, pricing.display),
    monthlyOther: formatAmount(monthly, other),
    setupFee: setupFeeLabel(offer.setupFee, pricing),
    setupFeeValue:
      fee === null ? null : fee.ht === 0 ? "Offerte" : formatAmount(fee, pricing.display),
    loa,
  };
}

/**
 * The terms of a configured offer (issue 21), for the offer page and its quote: the configured
 * monthly price and setup fee, and the simulated lease's duration and option when there is one.
 * A setup fee the offer does not state stays unstated unless an option adds one.
 */
export function configuredTermsSource(
  offer: Omit<OfferTermsSource, "price">,
  configuration: { monthly: number; setup: number },
  lease: { months: number; option: number } | null | undefined,
): OfferTermsSource {
  return {
    type: offer.type,
    price: centsText(configuration.monthly),
    setupFee:
      offer.setupFee === null && configuration.setup === 0 ? null : centsText(configuration.setup),
    loaMonths: lease ? lease.months : offer.loaMonths,
    loaPurchaseOption: lease ? centsText(lease.option) : offer.loaPurchaseOption,
    pricedMonths: lease ? lease.months : offer.pricedMonths,
  };
}

// The lease simulator (issue 21): French leasing is priced by the financer's coefficients.
// Monthly rent HT = financed amount HT × the coefficient of the duration; the purchase option is a
// percentage of the financed amount; total = rent × months + option. Exact, in cents.

/** The durations the scale (`Barème LOA`) can price, in months. */
export const LEASE_DURATIONS = [24, 36, 48, 60] as const;
export type LeaseDuration = (typeof LEASE_DURATIONS)[number];

/** The scale: a coefficient per duration ('0.03120' = 3,120 %), the purchase option in percent. */
export type LeaseScale = {
  rates: { months: number; coefficient: string }[];
  purchaseOptionPercent: string;
};

export const LEASE_PARAM = "duree";

/** A decimal text ('0.0312', '1,5') in units of 10^-digits, exactly; undefined if it is not one. */
export function scaled(text: string, digits: number): number | undefined {
  const match = /^(\d{1,6})(?:[.,](\d+))?$/.exec(text.trim());
  if (!match || (match[2]?.length ?? 0) > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? "").padEnd(digits, "0"));
}

/** `a × b / 10^digits`, rounded half up (amounts are never negative). */
const times = (cents: number, units: number, digits: number) =>
  Math.floor((cents * units + 10 ** digits / 2) / 10 ** digits);

export type LeaseQuote = { months: number; monthly: number; option: number; total: number };

/** The rent, option and total for `months`, or null when the scale has no such duration. */
export function leaseQuote(
  financedCents: number,
  months: number,
  scale: LeaseScale,
): LeaseQuote | null {
  const rate = scale.rates.find((r) => r.months === months);
  const coefficient = rate && scaled(rate.coefficient, 5);
  const percent = scaled(scale.purchaseOptionPercent, 2) ?? 0;
  if (coefficient === undefined) return null;
  const monthly = times(financedCents, coefficient, 5);
  const option = times(financedCents, percent, 4);
  return { months, monthly, option, total: monthly * months + option };
}

/** The durations an offer allows that the scale prices, in order. */
export function offeredDurations(allowed: readonly number[] | null, scale: LeaseScale): number[] {
  const priced = new Set(scale.rates.map((r) => r.months));
  return (allowed ?? []).filter((m) => priced.has(m)).sort((a, b) => a - b);
}

/** The duration an offer is shown at: its stated one if offered, else the first offered. */
export function defaultDuration(
  offered: readonly number[],
  stated: number | null,
): number | undefined {
  return stated !== null && offered.includes(stated) ? stated : offered[0];
}

/** The chosen duration from the query, else the offer's default duration. */
export function readDuration(
  params: URLSearchParams,
  offered: readonly number[],
  stated: number | null = null,
) {
  const value = Number(params.get(LEASE_PARAM));
  return offered.includes(value) ? value : defaultDuration(offered, stated);
}

/** What an LOA offer's price comes from (a full offer row fits). */
export type LeaseSource = {
  type: string;
  financedAmount: string | null;
  leaseDurations: readonly number[] | null;
  loaMonths: number | null;
};

/**
 * An offer's price by the scale (issue 39): for an LOA offer with a financed amount, the rent,
 * option and total of its default duration. Null for any other offer, and when the scale prices
 * none of its durations.
 */
export function scalePrice(offer: LeaseSource, scale: LeaseScale): LeaseQuote | null {
  if (offer.type !== "loa" || offer.financedAmount === null) return null;
  const months = defaultDuration(offeredDurations(offer.leaseDurations, scale), offer.loaMonths);
  return months === undefined ? null : leaseQuote(toCents(offer.financedAmount), months, scale);
}

/** The mention the law expects on a leasing offer to professionals, naming the financer. */
export function leaseMention(partner: string): string {
  return `Location avec option d'achat réservée aux professionnels, sous réserve d'acceptation du dossier par ${partner}, organisme financeur.`;
}
