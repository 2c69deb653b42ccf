import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as leasePage from "../../app/routes/admin/lease";
import * as offerEdit from "../../app/routes/admin/offer-edit";
import * as offerNew from "../../app/routes/admin/offer-new";
import { getCatalogueVersion } from "../../app/features/offers/catalogue.server";
import { readLeaseScale, saveLeaseScale } from "../../app/features/offers/lease.server";
import { priceColumns } from "../../app/lib/offer-price";
import { offers } from "../../app/platform/schema.server";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers, VALID_OFFER_FORM } from "../support/offers";

// Issue 39, decision 038: an LOA offer with a financed amount costs the rent of its default
// duration, written into its price columns by every save of the offer or of the scale.
const { database, signedInAdmin } = useAdminSuite();
let cookie: string;

const DEMO_SCALE = {
  rates: [
    { months: 24, coefficient: "0.04580" },
    { months: 36, coefficient: "0.03150" },
    { months: 48, coefficient: "0.02480" },
  ],
  purchaseOptionPercent: "1.50",
};

const LEASE_FORM = {
  ...VALID_OFFER_FORM,
  type: "loa",
  price: "412,50",
  loaPurchaseOption: "150",
  financedAmount: "13 000",
  leaseDurations: "24, 36, 48",
  loaMonths: "36",
};

const priceOf = async (id: number) => {
  const [row] = await database.db
    .select({
      price: offers.price,
      loaPurchaseOption: offers.loaPurchaseOption,
      pricedMonths: offers.pricedMonths,
    })
    .from(offers)
    .where(eq(offers.id, id));
  return row;
};

/** The `Barème LOA` form as posted, the durations left out empty. */
const scaleForm = (fields: Record<string, string>) =>
  call(
    leasePage.action,
    makeRequest("/admin/lease", {
      cookie,
      form: { c24: "", c36: "", c48: "", c60: "", ...fields },
    }),
  );

describe(`one price per offer (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    ({ cookie } = await signedInAdmin());
    await saveLeaseScale(DEMO_SCALE, database.db);
  });

  it("prices a financed LOA offer from the scale, whatever price and option were typed", async () => {
    const created = await call(
      offerNew.action,
      makeRequest("/admin/offers/new", { cookie, form: { ...LEASE_FORM, intent: "create" } }),
    );
    expect(created.status).toBe(302);
    const [{ id }] = await database.db.select({ id: offers.id }).from(offers);
    // 13 000 × 0,03150 at the stated 36 months; option 1,5 %.
    expect(await priceOf(id)).toEqual({
      price: "409.50",
      loaPurchaseOption: "195.00",
      pricedMonths: 36,
    });
    // A stated duration it does not offer: the first it offers (24 months).
    const edited = await call(
      offerEdit.action,
      makeRequest(`/admin/offers/${id}`, {
        cookie,
        form: { ...LEASE_FORM, loaMonths: "12", price: "", intent: "update", id: String(id) },
      }),
      undefined,
      { id: String(id) },
    );
    expect(edited.status).toBe(302);
    expect(await priceOf(id)).toEqual({
      price: "595.40",
      loaPurchaseOption: "195.00",
      pricedMonths: 24,
    });
    const page = await call(
      offerEdit.loader,
      makeRequest(`/admin/offers/${id}`, { cookie }),
      undefined,
      { id: String(id) },
    );
    expect(page.status).toBe(200);
    expect((page.data as { scale: unknown }).scale).toEqual(await readLeaseScale(database.db));
  });

  it("refuses a financed offer the scale cannot price, and a dedicated server without price", async () => {
    const unpriced = await call(
      offerNew.action,
      makeRequest("/admin/offers/new", {
        cookie,
        form: { ...LEASE_FORM, leaseDurations: "60", intent: "create" },
      }),
    );
    expect(unpriced.status).toBe(400);
    expect(JSON.stringify(unpriced.data)).toContain("Le Barème LOA ne prévoit aucune des durées");
    const priceless = await call(
      offerNew.action,
      makeRequest("/admin/offers/new", {
        cookie,
        form: { ...VALID_OFFER_FORM, price: "", intent: "create" },
      }),
    );
    expect(priceless.status).toBe(400);
    expect(await database.db.select().from(offers)).toEqual([]);
  });

  it("reprices every financed LOA offer with the scale, in its transaction, and bumps the catalogue", async () => {
    const [leased, typed, dedicated] = await insertOffers(database.db, [
      buildOffer(1, {
        type: "loa",
        price: "1.00",
        financedAmount: "4800.00",
        leaseDurations: [24, 36],
        loaMonths: 36,
      }),
      buildOffer(2, { type: "loa", price: "79.00", loaMonths: 12 }),
      buildOffer(3, { price: "129.00" }),
    ]);
    const before = await getCatalogueVersion(database.db);
    const saved = await scaleForm({ c24: "0,04700", c36: "0,03200", purchaseOptionPercent: "2" });
    expect(saved.status).toBe(302);
    expect(await priceOf(leased.id)).toEqual({
      price: "153.60", // 4 800 × 0,03200
      loaPurchaseOption: "96.00",
      pricedMonths: 36,
    });
    expect((await priceOf(typed.id)).price).toBe("79.00");
    expect((await priceOf(dedicated.id)).price).toBe("129.00");
    expect((await getCatalogueVersion(database.db)).version).not.toBe(before.version);

    // Without any of its durations the offer would have no price: refused, nothing written.
    const refused = await scaleForm({ c48: "0,02480", purchaseOptionPercent: "2" });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.data)).toContain("Offre 1");
    expect((await readLeaseScale(database.db)).rates.map((r) => r.months)).toEqual([24, 36]);
    expect((await priceOf(leased.id)).price).toBe("153.60");
  });

  it("backfills the price columns in SQL as the server computes them (migration 0018)", async () => {
    const rows = [
      { financedAmount: "13000.00", leaseDurations: [24, 36, 48], loaMonths: 36 },
      { financedAmount: "4800.00", leaseDurations: [24, 36], loaMonths: null },
      { financedAmount: "15700.00", leaseDurations: [48, 60], loaMonths: 36 },
      { financedAmount: "76000.00", leaseDurations: [36, 48, 60], loaMonths: 48 },
      { financedAmount: "999.99", leaseDurations: [24], loaMonths: 24 },
    ].map((lease, i) => buildOffer(i + 1, { type: "loa", price: "1.00", ...lease }));
    await insertOffers(database.db, rows);
    const scale = await readLeaseScale(database.db);
    const folder = path.resolve(import.meta.dirname, "../../drizzle");
    const file = readdirSync(folder).find((name) => name.startsWith("0018_"))!;
    const statements = readFileSync(path.join(folder, file), "utf8").split(
      "--> statement-breakpoint",
    );
    // The backfill and the version bump (the column exists already).
    for (const statement of statements.filter((s) => !/ALTER TABLE/i.test(s))) {
      await database.db.execute(sql.raw(statement));
    }
    const stored = await database.db.select().from(offers).orderBy(offers.id);
    expect(
      stored.map(({ price, loaPurchaseOption, pricedMonths }) => ({
        price,
        loaPurchaseOption,
        pricedMonths,
      })),
    ).toEqual(stored.map((row) => priceColumns(row, scale)));
  });
});
