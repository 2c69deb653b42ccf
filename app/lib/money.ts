// Money in integer cents: VAT and totals are computed exactly, never on binary floats.

/** Which figure a page shows first: HT for a business catalogue, TTC for consumers. */
export const PRICE_DISPLAYS = ["ht", "ttc"] as const;
export type PriceDisplay = (typeof PRICE_DISPLAYS)[number];

/** What the site needs to show a price: the VAT rate in percent (20, 5.5) and the primary figure. */
export type Pricing = { vatRate: number; display: PriceDisplay };

/** An amount as stored (numeric(10,2) read as '899.99') or typed, to cents; exact, no float step. */
export function toCents(amount: string | number): number {
  const text = typeof amount === "number" ? amount.toFixed(2) : amount.trim();
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new RangeError(`not an amount: ${text}`);
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** The VAT rate in hundredths of a percent (20 -> 2000, 5.5 -> 550). */
function rateBasisPoints(ratePercent: number): number {
  return Math.round(ratePercent * 100);
}

/** TTC from HT, VAT rounded half up to the cent (amounts are never negative). */
export function ttcCents(htCents: number, ratePercent: number): number {
  const vat = Math.floor((htCents * rateBasisPoints(ratePercent) + 5_000) / 10_000);
  return htCents + vat;
}

const euroFormatter = new Intl.NumberFormat("fr-FR", {
  style: "currency",
  currency: "EUR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** '1 079,99 €' (fr-FR's narrow no-break spaces kept). */
export function formatCents(cents: number): string {
  return euroFormatter.format(cents / 100);
}

/** An amount as stored ('899.99') or a number of euros: '899,99 €'. */
export function formatEuros(value: string | number): string {
  return formatCents(toCents(value));
}

/** The one place '/mois' is written: '899,99 € HT' -> '899,99 € HT/mois'. */
export function perMonth(label: string): string {
  return `${label}/mois`;
}

/** A stored monthly amount without its basis: '899,99 €/mois' (admin lists, contact form). */
export function formatMonthlyPrice(value: string | number): string {
  return perMonth(formatEuros(value));
}

export type Amount = { ht: number; ttc: number };

/** One amount HT (as stored) with its TTC. */
export function amount(priceHt: string | number, pricing: Pricing): Amount {
  const ht = toCents(priceHt);
  return { ht, ttc: ttcCents(ht, pricing.vatRate) };
}

const TAX_LABEL: Record<PriceDisplay, string> = { ht: "HT", ttc: "TTC" };

/** '899,99 € HT' or '1 079,99 € TTC'. */
export function formatAmount(value: Amount, basis: PriceDisplay): string {
  return `${formatCents(value[basis])} ${TAX_LABEL[basis]}`;
}

export const otherBasis = (basis: PriceDisplay): PriceDisplay => (basis === "ht" ? "ttc" : "ht");

/** The card's and the page's main figure: '899,99 € HT/mois' (or TTC first with PRICE_DISPLAY=ttc). */
export function monthlyLabel(priceHt: string | number, pricing: Pricing): string {
  return perMonth(formatAmount(amount(priceHt, pricing), pricing.display));
}

/** The same in two parts, for a large amount with a small suffix: '899,99 €' and 'HT/mois'. */
export function monthlyParts(
  priceHt: string | number,
  pricing: Pricing,
): { amount: string; suffix: string } {
  return {
    amount: formatCents(amount(priceHt, pricing)[pricing.display]),
    suffix: perMonth(TAX_LABEL[pricing.display]),
  };
}

/** The other figure, for the offer page: 'soit 1 079,99 € TTC/mois'. */
export function monthlyAlternativeLabel(priceHt: string | number, pricing: Pricing): string {
  return `soit ${perMonth(formatAmount(amount(priceHt, pricing), otherBasis(pricing.display)))}`;
}

/**
 * What an LOA contract costs in all: the monthly rent times the months plus the purchase option.
 * TTC is the sum of what is invoiced (each rent and the option with its own VAT), so it can differ
 * by a cent from the VAT of the HT total.
 */
export function loaTotal(
  monthlyHt: string | number,
  months: number,
  optionHt: string | number | null,
  pricing: Pricing,
): Amount {
  const monthly = amount(monthlyHt, pricing);
  const option = optionHt === null ? { ht: 0, ttc: 0 } : amount(optionHt, pricing);
  return { ht: monthly.ht * months + option.ht, ttc: monthly.ttc * months + option.ttc };
}

/** The setup fee line: null when not stated, 'Mise en service offerte' at zero. */
export function setupFeeLabel(feeHt: string | null, pricing: Pricing): string | null {
  if (feeHt === null) return null;
  const fee = amount(feeHt, pricing);
  if (fee.ht === 0) return "Mise en service offerte";
  return `Frais de mise en service : ${formatAmount(fee, pricing.display)}`;
}

/** An option's supplement as its choice shows it: '+40,00 € HT/mois' (HT: what is priced). */
export function monthlySupplementLabel(cents: number): string {
  return `+${perMonth(`${formatCents(cents)} HT`)}`;
}

/** '+25,00 € HT de mise en service'. */
export function setupSupplementLabel(cents: number): string {
  return `+${formatCents(cents)} HT de mise en service`;
}

/** Cents as an amount is stored: 89999 -> '899.99'. */
export function centsText(cents: number): string {
  return (cents / 100).toFixed(2);
}
