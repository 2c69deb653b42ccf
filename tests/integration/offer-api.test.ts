import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiOfferDetailSchema,
  apiOfferListSchema,
  apiProblemSchema,
} from "../../app/features/offers/offer-api-schema";
import { FACETS } from "../../app/lib/offer-facets";
import {
  MINIMUM_FILTERS,
  offerListingPath,
  parseOfferFilters,
  type OfferFilters,
  type OfferSort,
} from "../../app/lib/offer-filters";
import * as apiOffer from "../../app/routes/resources/api-offer";
import * as apiOffers from "../../app/routes/resources/api-offers";
import * as openApi from "../../app/routes/resources/api-openapi[.]json";
import * as listing from "../../app/routes/public/offers";
import { seedLeaseScale } from "../../app/features/offers/lease.server";
import { datacenters, type NewOffer } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { makeRequest, testContext } from "../support/admin";
import { buildConfigurableOffer, buildOffer, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase();

/** 30 offers over every select's values, prices and numbers: more than a page of 24. */
function fixtures(): NewOffer[] {
  const rows: NewOffer[] = [];
  const deliveries = ["stock_24h", "stock_72h", "on_order", "sold_out"] as const;
  for (let n = 1; n <= 30; n++) {
    rows.push(
      buildOffer(n, {
        title: n % 3 === 0 ? `EPYC ${n}` : `Xeon ${n}`,
        cpu: n % 3 === 0 ? "AMD EPYC 7543" : "Intel Xeon E-2388G",
        type: n % 4 === 0 ? "loa" : "dedicated",
        engagement: n % 2 === 0,
        price: `${(n * 37) % 400}.${n % 10}0`,
        ramGb: n % 5 === 0 ? null : 32 * (n % 4) + 32,
        cpuCores: n % 6 === 0 ? null : 4 * (n % 8) + 4,
        datacenter: n % 7 === 0 ? null : n % 2 === 0 ? "paris" : "roubaix",
        delivery: deliveries[n % 4],
        deliveryDays: n % 4 === 2 ? 10 : null,
        isActive: n !== 13,
      }),
    );
  }
  rows.push(
    buildConfigurableOffer(31, {
      title: "LOA configurable",
      type: "loa",
      loaMonths: 36,
      loaPurchaseOption: "150.00",
      financedAmount: "4000.00",
      leaseDurations: [24, 36, 48],
      storageTb: "3.84",
      bandwidthGbps: "1.00",
      datacenter: "paris",
    }),
  );
  return rows;
}

/** What the listing page shows at `path`: its offers' slugs, total and counts. */
async function listingAt(path: string) {
  const result = await listing.loader({
    request: makeRequest(path),
    context: testContext,
    params: {},
  } as never);
  return result as Awaited<ReturnType<typeof listing.loader>>;
}

async function apiAt(path: string) {
  const response = (await apiOffers.loader({
    request: makeRequest(path),
    context: testContext,
    params: {},
  } as never)) as Response;
  return { response, body: await response.json() };
}

/** Every listing parameter with values that keep some offers and values that keep none. */
const WALK: [string, OfferFilters][] = [
  ["q", { searchTerm: "epyc" }],
  ["q", { searchTerm: "introuvable" }],
  ["type", { type: "loa" }],
  ["type", { type: "dedicated" }],
  ["min", { minPrice: 100 }],
  ["max", { maxPrice: 150 }],
  ["min+max", { minPrice: 50, maxPrice: 250 }],
  ["ram_min", { ramMin: 96 }],
  ["cores_min", { coresMin: 16 }],
  ["engagement", { commitment: true }],
  ["engagement", { commitment: false }],
  ["location", { location: "paris" }],
  ["location", { location: "lyon" }],
  ["available", { availableNow: true }],
  ["all", { searchTerm: "xeon", type: "dedicated", location: "roubaix", availableNow: true }],
];
const SORTS: OfferSort[] = ["newest", "price_asc", "price_desc"];

describe(`the catalogue API (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    await database.db.insert(datacenters).values([
      { code: "paris", name: "Paris" },
      { code: "roubaix", name: "Roubaix" },
      { code: "lyon", name: "Lyon" },
    ]);
    await insertOffers(database.db, fixtures());
    await seedLeaseScale(database.db);
  });

  it("lists the listing's offers, in its order, for every filter, order and page", async () => {
    for (const [, filters] of [["none", {}] as const, ...WALK]) {
      for (const sort of SORTS) {
        for (const page of [1, 2]) {
          const path = offerListingPath(filters, page, sort);
          const { total } = await listingAt(offerListingPath(filters, 1, sort));
          if (page > 1 && total <= 24) continue; // the page redirects to its last page
          const shown = await listingAt(path);
          const api = await apiAt(path.replace("/offers", "/api/offers"));
          expect(api.response.status, path).toBe(200);
          expect(
            api.body.offers.map((o: { slug: string }) => o.slug),
            path,
          ).toEqual(shown.offers.map((o) => o.slug));
          expect(api.body.total, path).toBe(shown.total);
          expect(api.body.pageCount, path).toBe(shown.pageCount);
          apiOfferListSchema.parse(api.body);
        }
      }
    }
  });

  it("counts beside each choice what that choice lists with the other filters", async () => {
    for (const [, filters] of [["none", {}] as const, ...WALK]) {
      const { counts, total } = await listingAt(offerListingPath(filters));
      expect(counts?.total).toBe(total);
      for (const facet of FACETS) {
        const choices =
          facet === "type"
            ? ["dedicated", "loa"]
            : facet === "engagement"
              ? ["yes", "no"]
              : facet === "location"
                ? ["paris", "roubaix", "lyon"]
                : ["1"];
        const params = new URLSearchParams(offerListingPath(filters).split("?")[1] ?? "");
        params.delete(facet);
        const { filters: without } = parseOfferFilters(params);
        expect(counts?.facets[facet].all, `${facet} Tous`).toBe(
          (await listingAt(offerListingPath(without))).total,
        );
        for (const choice of choices) {
          params.set(facet, choice);
          const { filters: chosen } = parseOfferFilters(params);
          const listed = (await listingAt(offerListingPath(chosen))).total;
          expect(counts?.facets[facet].by[choice] ?? 0, `${facet}=${choice}`).toBe(listed);
        }
      }
    }
  });

  it("gives the fields a buyer compares, with HT and TTC, LOA terms, options and the page's address", async () => {
    const response = (await apiOffer.loader({
      request: makeRequest("/api/offers/offre-31"),
      context: testContext,
      params: { slug: "offre-31" },
    } as never)) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const offer = apiOfferDetailSchema.parse(await response.json());
    expect(offer).toMatchObject({
      slug: "offre-31",
      type: "loa",
      url: "http://localhost:3000/offers/offre-31",
      // One price (decision 038): 4 000 € financed × 0,03150 at 36 months, option 1,5 %.
      price: { monthlyHt: 126, monthlyTtc: 151.2, vatRate: 20, setupFeeHt: 49, setupFeeTtc: 58.8 },
      loa: {
        months: 36,
        purchaseOptionHt: 60,
        purchaseOptionTtc: 72,
        totalHt: 4596,
        totalTtc: 5515.2,
      },
      specs: { storageTb: 3.84, bandwidthGbps: 1 },
      delivery: { state: "stock_24h", availableNow: true, label: "En stock — livraison sous 24 h" },
      datacenter: { code: "paris", name: "Paris" },
    });
    expect(offer.lease?.durations.map((d) => d.months)).toEqual([24, 36, 48]);
    expect(offer.lease?.durations.find((d) => d.months === 36)).toMatchObject({
      monthlyHt: offer.price.monthlyHt,
      purchaseOptionHt: offer.loa?.purchaseOptionHt,
      totalHt: offer.loa?.totalHt,
    });
    expect(offer.options).toEqual([
      {
        kind: "choice",
        label: "Mémoire",
        choices: [
          { label: "128 Go inclus", monthlyHt: 0, setupHt: 0 },
          { label: "256 Go", monthlyHt: 40, setupHt: 0 },
        ],
      },
      {
        kind: "quantity",
        label: "IPv4 supplémentaires",
        min: 0,
        max: 16,
        monthlyHt: 2,
        setupHt: 5,
      },
    ]);
  });

  it("answers a French JSON 404 for an unknown, inactive or malformed slug", async () => {
    for (const slug of ["inconnue", "offre-13", "Pas Un Slug"]) {
      const response = (await apiOffer.loader({
        request: makeRequest(`/api/offers/${encodeURIComponent(slug)}`),
        context: testContext,
        params: { slug },
      } as never)) as Response;
      expect(response.status, slug).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(apiProblemSchema.parse(await response.json()).title).toBe("Offre non trouvée");
    }
  });

  it("refuses bad parameters with a French JSON 400, never a 500", async () => {
    const cases: [string, RegExp][] = [
      ["type=serveur", /^type : dedicated ou loa est attendu/],
      ["min=abc", /^min : un nombre entier positif/],
      ["max=-5", /^max : un nombre entier positif/],
      ["max=99999999", /^max : 1000000 au plus/],
      ["page=0", /^page : 1 au moins/],
      ["sort=cheap", /^sort : /],
      ["engagement=maybe", /^engagement : yes ou no/],
      ["location=Paris%20Nord", /^location : /],
      ["available=yes", /^available : 1 est attendu/],
      [`q=${"x".repeat(101)}`, /^q : 100 caractères au plus/],
      ["colour=red", /^Paramètre inconnu : colour/],
      ["type=loa&type=dedicated", /^Paramètre répété : type/],
    ];
    for (const [query, message] of cases) {
      const { response, body } = await apiAt(`/api/offers?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(apiProblemSchema.parse(body).detail, query).toMatch(message);
    }
    // Empty values are no filter, as the listing's form sends them.
    const { response } = await apiAt("/api/offers?q=&type=&page=");
    expect(response.status).toBe(200);
  });

  it("publishes an OpenAPI 3.1 document that a maintained validator accepts", async () => {
    const response = (await openApi.loader()) as Response;
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    const parameters = document.paths["/api/offers"].get.parameters.map(
      (p: { name: string }) => p.name,
    );
    // Pinned: a parameter changes only on purpose. A new "at least" filter's comes with its
    // MINIMUM_FILTERS line; the published ones stay.
    const minimums = MINIMUM_FILTERS.map((filter) => filter.param);
    expect(minimums).toEqual(expect.arrayContaining(["ram_min", "cores_min"]));
    expect(parameters).toEqual([
      "q",
      "type",
      "min",
      "max",
      ...minimums,
      "engagement",
      "location",
      "available",
      "sort",
      "page",
    ]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["Offer", "OfferDetail", "OfferList", "Problem", "OptionGroup"]),
    );
  });
});
