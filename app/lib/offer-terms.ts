import {
  amount,
  centsText,
  formatAmount,
  loaTotal,
  otherBasis,
  setupFeeLabel,
  type Pricing,
} from "./money";
import { offerPrice, type PricedOffer } from "./offer-price";

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
