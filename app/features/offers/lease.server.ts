import { asc, eq } from "drizzle-orm";
import {
  leaseQuote,
  offeredDurations,
  readDuration,
  type LeaseQuote,
  type LeaseScale,
} from "~/lib/lease";
import { toCents } from "~/lib/money";
import { bumpCatalogueVersion } from "./catalogue.server";
import { byCatalogue } from "./catalogue-memo.server";
import { db, type Database } from "~/platform/db.server";
import { appState, leaseRates } from "~/platform/schema.server";

// The `Barème LOA` (issue 21): coefficients in lease_rates, the purchase option in app_state.

const OPTION_KEY = "lease_purchase_option_percent";

export async function readLeaseScale(database: Database = db()): Promise<LeaseScale> {
  const [rates, option] = await Promise.all([
    database
      .select({ months: leaseRates.months, coefficient: leaseRates.coefficient })
      .from(leaseRates)
      .orderBy(asc(leaseRates.months)),
    database.select({ value: appState.value }).from(appState).where(eq(appState.key, OPTION_KEY)),
  ]);
  return { rates, purchaseOptionPercent: option[0]?.value ?? "0" };
}

/** The current scale, kept per catalogue version (the offer pages read it on every render). */
const currentLeaseScale = byCatalogue(() => readLeaseScale());

/** Replaces the scale: durations without a coefficient are no longer offered. */
export async function saveLeaseScale(scale: LeaseScale, database: Database = db()) {
  await database.transaction(async (tx) => {
    await tx.delete(leaseRates);
    if (scale.rates.length) await tx.insert(leaseRates).values(scale.rates);
    await tx
      .insert(appState)
      .values({ key: OPTION_KEY, value: scale.purchaseOptionPercent })
      .onConflictDoUpdate({ target: appState.key, set: { value: scale.purchaseOptionPercent } });
    // Offer pages show the rents: cached pages are keyed by the catalogue version.
    await bumpCatalogueVersion(tx);
  });
}

/** The demo's scale, written only when there is none. */
export async function seedLeaseScale(database: Database) {
  const [existing] = await database.select({ months: leaseRates.months }).from(leaseRates).limit(1);
  if (existing) return;
  await saveLeaseScale(
    {
      rates: [
        { months: 24, coefficient: "0.04580" },
        { months: 36, coefficient: "0.03150" },
        { months: 48, coefficient: "0.02480" },
        { months: 60, coefficient: "0.02090" },
      ],
      purchaseOptionPercent: "1.50",
    },
    database,
  );
}

/**
 * The simulator's terms for an LOA offer with a financed amount, at the duration `query` chooses
 * (else the first offered): null for any other offer or when the scale prices none of its durations.
 */
export async function leaseTerms(
  offer: {
    type: string;
    financedAmount: string | null;
    leaseDurations: number[] | null;
    loaMonths: number | null;
  },
  query: URLSearchParams,
  database?: Database,
): Promise<{ offered: number[]; quote: LeaseQuote } | null> {
  if (offer.type !== "loa" || offer.financedAmount === null) return null;
  const scale = database ? await readLeaseScale(database) : await currentLeaseScale();
  const offered = offeredDurations(offer.leaseDurations, scale);
  const months = readDuration(query, offered, offer.loaMonths);
  const quote = months ? leaseQuote(toCents(offer.financedAmount), months, scale) : null;
  return quote ? { offered, quote } : null;
}
