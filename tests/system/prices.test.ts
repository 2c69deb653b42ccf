import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ServerProcess } from "./harness/server-process";

// A consumer-facing configuration of the built server: TTC first, a reduced VAT rate (issue 13,
// docs/decisions/016). The default (HT first, 20 %) is covered by the browser tests.
let server: ServerProcess;

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/[\s\u00a0\u202f]+/g, " ");

async function page(path: string) {
  const response = await fetch(`${server.base}${path}`, { redirect: "manual" });
  expect(response.status, path).toBe(200);
  return response.text();
}

describe("PRICE_DISPLAY=ttc with VAT_RATE=5.5 (built server)", () => {
  beforeAll(async () => {
    server = await startServer({
      port: 4437,
      env: { SITE_URL: "https://serveurs.example.fr", PRICE_DISPLAY: "ttc", VAT_RATE: "5.5" },
    }).ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows TTC first on the cards, the HT price still filtering", async () => {
    // 899.99 HT at 5.5 %: 49.49945 of VAT, rounded half up to 49.50 -> 949.49 TTC.
    const listing = text(await page("/offers?q=epyc&max=900"));
    expect(listing).toContain("EPYC Performance 64");
    expect(listing).toContain("949,49 € TTC/mois");
    expect(listing).toContain("+ 51,70 € TTC de mise en service");
    expect(listing).not.toContain("€ HT/mois");
  });

  it("gives the HT amount as the alternative and the TTC price in JSON-LD", async () => {
    const html = await page("/offers/epyc-performance-64");
    const body = text(html);
    expect(body).toContain("949,49 € TTC /mois");
    expect(body).toContain("soit 899,99 € HT/mois");
    expect(body).toContain("Frais de mise en service : 51,70 € TTC");
    const [product] = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)]
      .map((m) => JSON.parse(m[1]) as { offers: Record<string, unknown> })
      .filter((data) => "offers" in data);
    expect(product.offers).toMatchObject({
      price: "949.49",
      priceSpecification: { price: "949.49", valueAddedTaxIncluded: true },
    });
  });

  it("puts TTC first in the LOA total and the comparison", async () => {
    // The lease simulator's rent at 36 months (issue 21): 409.50 HT -> 432.02 TTC; 36 rents +
    // the 195.00 option (205.73 TTC), each invoiced with its own VAT.
    const offer = text(await page("/offers/loa-pme-36-mois"));
    expect(offer).toContain("432,02 € TTC /mois soit 409,50 € HT/mois");
    expect(offer).toContain("Coût total 15 758,45 € TTC (soit 14 937,00 € HT)");
    const compared = text(await page("/comparer?offres=loa-pme-36-mois,starter-web"));
    expect(compared).toMatch(/Prix HT 409,50 € HT\/mois 39,99 € HT\/mois/);
    expect(compared).toMatch(/Prix TTC 432,02 € TTC\/mois 42,19 € TTC\/mois/);
  });

  it("labels TTC the contact form's offer choices and its offer search", async () => {
    const html = await page("/contact?offer=1");
    const prices = [...html.matchAll(/data-price="([^"]*)"/g)].map((m) => m[1]);
    expect(prices.length).toBeGreaterThan(5);
    for (const price of prices) expect(price).toMatch(/ TTC\/mois$/);
    const search = (await (await fetch(`${server.base}/contact/offers?q=epyc`)).json()) as {
      offers: { price: string }[];
    };
    expect(search.offers.map((o) => o.price)).toContain("949,49\u00a0€ TTC/mois");
  });

  it("gives the contact form's chosen configuration its total TTC first", async () => {
    // 512 Go of memory chosen (+120 HT/mois).
    const offer = await page("/offers/epyc-performance-64?o0=1");
    const link = /href="(\/contact\?offer=\d+&amp;configuration=[^"]+)"/.exec(offer)?.[1];
    expect(link, "the offer page's contact link with its configuration").toBeDefined();
    const contact = text(await page(link!.replace(/&amp;/g, "&")));
    expect(contact).toContain("Configuration choisie");
    expect(contact).toMatch(
      /Total : [\d ,]+ € TTC\/mois \([\d ,]+ € HT\/mois\), mise en service [\d ,]+ € TTC/,
    );
  });
});
