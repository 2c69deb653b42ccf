import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import {
  leaseQuote,
  offeredDurations,
  readDuration,
  scalePrice,
  type LeaseQuote,
  type LeaseScale,
} from "~/lib/offer-price";
import { toCents } from "~/lib/money";
import { priceColumns } from "~/lib/offer-price";
import { bumpCatalogueVersion } from "./catalogue.server";
import { catalogueVersion } from "./catalogue-memo.server";
import { memo } from "~/lib/memo";
import { db, type ColumnsRow, type Database } from "~/platform/db.server";
import { appState, leaseRates, offers } from "~/platform/schema.server";

// The `Barème LOA` (issue 21): coefficients in lease_rates, the purchase option in app_state.
// The LOA offers with a financed amount are priced by it (decision 038): their price columns are
// written again, in the same transaction, whenever the scale or the offer is saved.

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

/**
 * The scale, read in the transaction of a write that prices offers with it. The option's row is
 * locked (`share` by an offer's save, `update` by the scale's): an offer saved while the scale
 * changes is priced by the scale that commits last, never by the one it replaces.
 */
export async function lockedLeaseScale(
  tx: Database,
  mode: "share" | "update" = "share",
): Promise<LeaseScale> {
  await tx.execute(sql`select 1 from ${appState} where key = ${OPTION_KEY} for ${sql.raw(mode)}`);
  return readLeaseScale(tx);
}

/** The current scale, kept per catalogue version (the offer pages read it on every render). */
const currentLeaseScale = memo(() => readLeaseScale(), { max: 1, version: catalogueVersion });

const financedLeaseColumns = {
  id: offers.id,
  title: offers.title,
  type: offers.type,
  financedAmount: offers.financedAmount,
  leaseDurations: offers.leaseDurations,
  loaMonths: offers.loaMonths,
  price: offers.price,
  loaPurchaseOption: offers.loaPurchaseOption,
  pricedMonths: offers.pricedMonths,
};

type FinancedLeaseOffer = ColumnsRow<typeof financedLeaseColumns> & {
  id: number;
  title: string;
  type: "dedicated" | "loa";
  price: string;
};

const financedLeaseOffers = (database: Database): Promise<FinancedLeaseOffer[]> =>
  database
    .select(financedLeaseColumns)
    .from(offers)
    .where(and(eq(offers.type, "loa"), isNotNull(offers.financedAmount)))
    .orderBy(asc(offers.title));

/** Rows per UPDATE of the repricing (4 parameters a row, far under PostgreSQL's 65,535). */
const REPRICE_BATCH = 1000;

/**
 * Writes the price columns of the financed LOA offers from `scale`, where they differ (updated_at
 * moves with them). The caller checked that the scale prices each one.
 */
async function repriceLeaseOffers(rows: FinancedLeaseOffer[], scale: LeaseScale, tx: Database) {
  const changed = rows.flatMap((row) => {
    const columns = priceColumns(row, scale);
    if (!columns) return [];
    const same =
      columns.price === row.price &&
      columns.loaPurchaseOption === row.loaPurchaseOption &&
      columns.pricedMonths === row.pricedMonths;
    return same ? [] : [{ id: row.id, ...columns }];
  });
  for (let i = 0; i < changed.length; i += REPRICE_BATCH) {
    const values = changed
      .slice(i, i + REPRICE_BATCH)
      .map(
        (c) =>
          sql`(${c.id}::int, ${c.price}::numeric, ${c.loaPurchaseOption}::numeric, ${c.pricedMonths}::int)`,
      );
    await tx.execute(sql`
      update offers set price = v.price, loa_purchase_option = v.option,
        priced_months = v.months, updated_at = now()
      from (values ${sql.join(values, sql`, `)}) as v(id, price, option, months)
      where offers.id = v.id`);
  }
  return changed.length;
}

export type SaveLeaseScaleResult =
  | { kind: "saved"; repriced: number }
  /** The scale would price none of the durations of these offers (titles): nothing written. */
  | { kind: "unpriced"; titles: string[] };

/**
 * Replaces the scale: durations without a coefficient are no longer offered. Every LOA offer with
 * a financed amount gets its new price in the same transaction; a scale that would leave one of
 * them without any priced duration is refused.
 */
export async function saveLeaseScale(
  scale: LeaseScale,
  database: Database = db(),
): Promise<SaveLeaseScaleResult> {
  return database.transaction(async (tx): Promise<SaveLeaseScaleResult> => {
    await lockedLeaseScale(tx, "update");
    const financed = await financedLeaseOffers(tx);
    const unpriced = financed.filter((offer) => !scalePrice(offer, scale));
    if (unpriced.length) return { kind: "unpriced", titles: unpriced.map((o) => o.title) };
    await tx.delete(leaseRates);
    if (scale.rates.length) await tx.insert(leaseRates).values(scale.rates);
    await tx
      .insert(appState)
      .values({ key: OPTION_KEY, value: scale.purchaseOptionPercent })
      .onConflictDoUpdate({ target: appState.key, set: { value: scale.purchaseOptionPercent } });
    const repriced = await repriceLeaseOffers(financed, scale, tx);
    // Offer pages show the rents: cached pages are keyed by the catalogue version.
    await bumpCatalogueVersion(tx);
    return { kind: "saved", repriced };
  });
}

/** The demo's scale, written only when there is none. */
export async function seedLeaseScale(database: Database) {
  const [existing] = await database.select({ months: leaseRates.months }).from(leaseRates).limit(1);
  if (existing) return;
  const saved = await saveLeaseScale(
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
  if (saved.kind !== "saved") throw new Error(`demo scale refused: ${saved.titles.join(", ")}`);
}

/**
 * The simulator's terms for an LOA offer with a financed amount, at the duration `query` chooses
 * (else its default duration, whose terms are its price columns): null for any other offer or when
 * the scale prices none of its durations.
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
): Promise<{ offered: number[]; quote: LeaseQuote; coefficient: string } | null> {
  if (offer.type !== "loa" || offer.financedAmount === null) return null;
  const scale = database ? await readLeaseScale(database) : await currentLeaseScale();
  const offered = offeredDurations(offer.leaseDurations, scale);
  const months = readDuration(query, offered, offer.loaMonths);
  const quote = months ? leaseQuote(toCents(offer.financedAmount), months, scale) : null;
  const coefficient = scale.rates.find((rate) => rate.months === quote?.months)?.coefficient;
  return quote && coefficient ? { offered, quote, coefficient } : null;
}
