// The configuration a request carries: the offer's priced options as chosen, kept as a snapshot.
import { eq } from "drizzle-orm";
import {
  configure,
  readSelection,
  selectionParams,
  type ConfigurationSnapshot,
} from "~/lib/offer-options";
import { LEASE_PARAM } from "~/lib/offer-price";
import { centsText, toCents } from "~/lib/money";
import { db, type ColumnsRow, type Database } from "~/platform/db.server";
import { leaseTerms } from "~/features/offers/lease.server";
import { offers } from "~/platform/schema.server";

/** The offer's columns a configuration is priced from. */
export const configurationColumns = {
  price: offers.price,
  setupFee: offers.setupFee,
  options: offers.options,
  type: offers.type,
  financedAmount: offers.financedAmount,
  leaseDurations: offers.leaseDurations,
  loaMonths: offers.loaMonths,
  pricedMonths: offers.pricedMonths,
};

type ConfigurableOffer = ColumnsRow<typeof configurationColumns> & {
  type: "dedicated" | "loa";
  price: string;
};

/**
 * The snapshot of an offer's configuration as chosen by `query` (offer-options.ts): null when the
 * offer has no options or is gone. Prices are the offer's at this moment.
 */
export async function configurationSnapshot(
  offerId: number,
  query: string,
  database: Database = db(),
): Promise<ConfigurationSnapshot | null> {
  const [offer] = await database
    .select(configurationColumns)
    .from(offers)
    .where(eq(offers.id, offerId));
  if (!offer) return null;
  return configurationOf(offer, new URLSearchParams(query), database);
}

/**
 * An offer's configuration as `params` choose it (the offer page's, the contact form's, the
 * quote's): null when the offer has neither options nor a simulated lease.
 */
export async function configurationOf(
  offer: ConfigurableOffer,
  params: URLSearchParams,
  database: Database = db(),
): Promise<ConfigurationSnapshot | null> {
  const lease = await leaseTerms(offer, params, database);
  const groups = offer.options ?? [];
  if (!groups.length && !lease) return null;
  const selection = readSelection(groups, params);
  // With a lease the monthly price is the rent of the chosen duration (as on the offer page).
  const base = lease ? { ...offer, price: centsText(lease.quote.monthly) } : offer;
  const configuration = configure(base, groups, selection);
  const chosen = selectionParams(groups, selection);
  if (lease) chosen.set(LEASE_PARAM, String(lease.quote.months));
  return {
    ...configuration,
    query: chosen.toString(),
    lease: lease && {
      months: lease.quote.months,
      option: lease.quote.option,
      total: configuration.monthly * lease.quote.months + lease.quote.option,
      // What the financer's summary states (issue 41): the amount and coefficient priced here.
      financed: toCents(offer.financedAmount ?? "0"),
      coefficient: lease.coefficient,
    },
  };
}
