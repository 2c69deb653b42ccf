// The lease simulator (issue 21): French leasing is priced by the financer's coefficients.
// Monthly rent HT = financed amount HT × the coefficient of the duration; the purchase option is a
// percentage of the financed amount; total = rent × months + option. Exact, in cents.

import { toCents } from "./money";

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
