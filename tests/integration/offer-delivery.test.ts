import { beforeEach, describe, expect, it } from "vitest";
import { parseOfferFilters } from "../../app/lib/offer-filters";
import * as datacentersPage from "../../app/routes/admin/datacenters";
import * as offerNew from "../../app/routes/admin/offer-new";
import {
  addDatacenter,
  listDatacenters,
  removeDatacenter,
} from "../../app/features/offers/datacenters.server";
import {
  findActiveOfferBySlug,
  listActiveOffers,
} from "../../app/features/offers/offer-listing.server";
import { datacenters, offers } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { buildOffer, insertOffers, VALID_OFFER_FORM } from "../support/offers";

const { database, signedInAdmin } = useAdminSuite();
let cookie: string;

async function titles(query: string) {
  const { filters } = parseOfferFilters(new URLSearchParams(query));
  const { offers: rows } = await listActiveOffers(filters, 1, 50, database.db);
  return rows.map((o) => o.title).sort();
}

describe(`availability and datacenter (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    ({ cookie } = await signedInAdmin());
    await database.db.insert(datacenters).values([
      { code: "paris", name: "Paris" },
      { code: "roubaix", name: "Roubaix" },
    ]);
    await insertOffers(database.db, [
      buildOffer(1, { title: "Paris 24h", datacenter: "paris", delivery: "stock_24h" }),
      buildOffer(2, { title: "Paris épuisé", datacenter: "paris", delivery: "sold_out" }),
      buildOffer(3, {
        title: "Roubaix commande",
        datacenter: "roubaix",
        delivery: "on_order",
        deliveryDays: 10,
      }),
      buildOffer(4, { title: "Roubaix 72h", datacenter: "roubaix", delivery: "stock_72h" }),
      buildOffer(5, { title: "Nulle part" }),
    ]);
  });

  it("filters the listing on location and available=1, and keeps exhausted offers otherwise", async () => {
    expect(await titles("location=paris")).toEqual(["Paris 24h", "Paris épuisé"]);
    expect(await titles("available=1")).toEqual(["Nulle part", "Paris 24h", "Roubaix 72h"]);
    expect(await titles("location=roubaix&available=1")).toEqual(["Roubaix 72h"]);
    expect(await titles("location=lyon")).toEqual([]);
    expect(await titles("")).toHaveLength(5);
  });

  it("gives cards and pages the datacenter's name", async () => {
    const { offers: rows } = await listActiveOffers({ location: "roubaix" }, 1, 50, database.db);
    expect(rows.map((o) => [o.datacenterName, o.delivery, o.deliveryDays])).toEqual(
      expect.arrayContaining([
        ["Roubaix", "on_order", 10],
        ["Roubaix", "stock_72h", null],
      ]),
    );
    expect(await findActiveOfferBySlug("offre-5", database.db)).toMatchObject({
      datacenterName: null,
      delivery: "stock_24h",
    });
  });

  it("keeps the list: a duplicate name is refused, a removed datacenter leaves its offers without one", async () => {
    expect(await addDatacenter("Strasbourg", database.db)).toEqual({
      kind: "added",
      code: "strasbourg",
    });
    expect(await addDatacenter("strasbourg ", database.db)).toEqual({ kind: "duplicate" });
    expect(await removeDatacenter("paris", database.db)).toEqual({ kind: "removed" });
    expect(await removeDatacenter("paris", database.db)).toEqual({ kind: "missing" });
    expect((await listDatacenters(database.db)).map((d) => [d.name, d.offerCount])).toEqual([
      ["Roubaix", 2],
      ["Strasbourg", 0],
    ]);
    expect(await titles("location=paris")).toEqual([]);
  });

  it("the admin page adds a datacenter and refuses an empty name with a French 400", async () => {
    const added = await call(
      datacentersPage.action,
      makeRequest("/admin/datacenters", { cookie, form: { intent: "add", name: "Lyon" } }),
    );
    expect(added.status).toBe(302);
    const empty = await call(
      datacentersPage.action,
      makeRequest("/admin/datacenters", { cookie, form: { intent: "add", name: " " } }),
    );
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.data)).toContain("Ce champ est obligatoire.");
  });

  it("the editor saves delivery and datacenter, and refuses an unknown datacenter or a delay in stock", async () => {
    const form = {
      ...VALID_OFFER_FORM,
      intent: "create",
      delivery: "on_order",
      deliveryDays: "15",
      datacenter: "roubaix",
    };
    const created = await call(offerNew.action, makeRequest("/admin/offers/new", { cookie, form }));
    expect(created.status).toBe(302);
    const unknown = await call(
      offerNew.action,
      makeRequest("/admin/offers/new", { cookie, form: { ...form, datacenter: "lyon" } }),
    );
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.data)).toContain("Datacenter « lyon » n'existe pas.");
    const inStock = await call(
      offerNew.action,
      makeRequest("/admin/offers/new", { cookie, form: { ...form, delivery: "stock_24h" } }),
    );
    expect(inStock.status).toBe(400);
    expect(JSON.stringify(inStock.data)).toContain("Réservé aux offres sur commande.");
    const rows = await database.db.select().from(offers);
    expect(rows.filter((r) => r.title === VALID_OFFER_FORM.title)).toEqual([
      expect.objectContaining({ delivery: "on_order", deliveryDays: 15, datacenter: "roubaix" }),
    ]);
  });
});
