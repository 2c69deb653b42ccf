import { beforeEach, describe, expect, it } from "vitest";
import * as leasePage from "../../app/routes/admin/lease";
import * as offerPage from "../../app/routes/public/offer";
import { configurationLines } from "../../app/lib/offer-options";
import { configurationSnapshot } from "../../app/features/desk/contact-configuration.server";
import { readLeaseScale } from "../../app/features/offers/lease.server";
import { offers } from "../../app/platform/schema.server";
import { call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";

const { database, signedInAdmin } = useAdminSuite();
let cookie: string;

type Loaded = {
  configured: {
    configuration: { monthly: number };
    lease: {
      offered: number[];
      quote: { months: number; monthly: number; option: number; total: number };
    } | null;
    query: string;
  };
};

describe(`lease simulator (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    ({ cookie } = await signedInAdmin());
    await insertOffers(database.db, [
      buildOffer(1, {
        type: "loa",
        price: "400.00",
        financedAmount: "13000.00",
        leaseDurations: [24, 36, 48],
      }),
    ]);
  });

  it("the Barème LOA page saves coefficients and refuses a bad one in French", async () => {
    const saved = await call(
      leasePage.action,
      makeRequest("/admin/lease", {
        cookie,
        form: {
          c24: "0,04580",
          c36: "0.03150",
          c48: "0.02480",
          c60: "",
          purchaseOptionPercent: "1,5",
        },
      }),
    );
    expect(saved.status).toBe(302);
    expect(await readLeaseScale(database.db)).toEqual({
      rates: [
        { months: 24, coefficient: "0.04580" },
        { months: 36, coefficient: "0.03150" },
        { months: 48, coefficient: "0.02480" },
      ],
      purchaseOptionPercent: "1.5",
    });
    const refused = await call(
      leasePage.action,
      makeRequest("/admin/lease", { cookie, form: { c24: "abc", purchaseOptionPercent: "1" } }),
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.data)).toContain("Le coefficient à 24 mois");
  });

  it("the offer page prices the chosen duration: rent, option, total", async () => {
    await call(
      leasePage.action,
      makeRequest("/admin/lease", {
        cookie,
        form: { c24: "0.04580", c36: "0.03150", c48: "0.02480", purchaseOptionPercent: "1.5" },
      }),
    );
    const page = await call(
      offerPage.loader,
      makeRequest("/offers/offre-1?duree=48"),
      testContext,
      {
        slug: "offre-1",
      },
    );
    const { configured } = page.data as Loaded;
    expect(configured.lease?.offered).toEqual([24, 36, 48]);
    // 13 000 € × 0,0248 = 322,40 €/mois; option 1,5 % = 195 €; 48 × 322,40 + 195 = 15 670,20 €.
    expect(configured.lease?.quote).toEqual({
      months: 48,
      monthly: 32240,
      option: 19500,
      total: 1567020,
    });
    expect(configured.configuration.monthly).toBe(32240);
    expect(configured.query).toBe("duree=48");

    // The contact request keeps the same lease in its snapshot.
    const [{ id }] = await database.db.select({ id: offers.id }).from(offers);
    const snapshot = await configurationSnapshot(id, "duree=48", database.db);
    // With the amount and coefficient the financer's summary states (issue 41).
    expect(snapshot?.lease).toEqual({
      months: 48,
      option: 19500,
      total: 1567020,
      financed: 1300000,
      coefficient: "0.02480",
    });
    expect(
      configurationLines(snapshot!)
        .join("\n")
        .replace(/[\u202f\u00a0]/g, " "),
    ).toContain("Location : 48 mois, option d'achat 195,00 € HT, coût total 15 670,20 € HT");
  });
});
