import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bumpCatalogueVersion,
  getCatalogueVersion,
} from "../../app/features/offers/catalogue.server";
import { offers } from "../../app/platform/schema.server";
import { loadDemoOffers } from "../../app/features/setup/seed.server";
import { robotsTxt, sitemapEntries, sitemapXml } from "../../app/features/offers/sitemap.server";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase();

/** The exact shape of our sitemap: well-formed XML with nothing but <url><loc>[<lastmod>]. */
const SITEMAP_SHAPE =
  /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">\n(<url><loc>(?:[^<>&"']|&(?:amp|lt|gt|quot|apos);)+<\/loc>(<lastmod>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z<\/lastmod>)?<\/url>\n)*<\/urlset>\n$/;

describe(`sitemap and robots.txt (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    await loadDemoOffers(database.db);
    await database.db
      .update(offers)
      .set({ updatedAt: new Date("2026-03-04T05:06:07.000Z") })
      .where(eq(offers.slug, "starter-web"));
  });

  it("lists the home, the listing, the contact page, the privacy policy, the legal notice, the feed, the API document and every active offer with its updated_at", async () => {
    const entries = await sitemapEntries();
    const rows = await database.db
      .select({ slug: offers.slug, updatedAt: offers.updatedAt, isActive: offers.isActive })
      .from(offers);
    const active = rows.filter((row) => row.isActive);
    expect(rows.length).toBeGreaterThan(active.length); // the demo has an inactive offer

    expect(entries.slice(0, 7).map((e) => e.path)).toEqual([
      "/",
      "/offers",
      "/contact",
      "/confidentialite",
      "/mentions-legales",
      "/offers.atom",
      "/api/openapi.json",
    ]);
    const offerEntries = entries.slice(7);
    expect(offerEntries.map((e) => e.path).sort()).toEqual(
      active.map((row) => `/offers/${row.slug}`).sort(),
    );
    for (const row of active) {
      const entry = offerEntries.find((e) => e.path === `/offers/${row.slug}`);
      expect(entry?.lastmod?.toISOString()).toBe(row.updatedAt.toISOString());
    }
    expect(offerEntries.find((e) => e.path === "/offers/starter-web")?.lastmod?.toISOString()).toBe(
      "2026-03-04T05:06:07.000Z",
    );
  });

  it("dates the listing by the last catalogue change", async () => {
    await bumpCatalogueVersion();
    const { updatedAt } = await getCatalogueVersion();
    const entries = await sitemapEntries();
    const listing = entries.find((e) => e.path === "/offers");
    expect(listing?.lastmod?.getTime()).toBeGreaterThanOrEqual(updatedAt!.getTime());
  });

  it("writes well-formed XML with absolute, escaped URLs", async () => {
    const xml = sitemapXml("https://serveurs.example.fr", await sitemapEntries());
    expect(xml).toMatch(SITEMAP_SHAPE);
    expect(xml).toContain("<loc>https://serveurs.example.fr/offers/starter-web</loc>");
    expect(xml).toContain(
      "<loc>https://serveurs.example.fr/offers/starter-web</loc><lastmod>2026-03-04T05:06:07.000Z</lastmod>",
    );
    expect(xml).not.toContain("xeon-legacy");
    const odd = sitemapXml("https://a.example/?x=1&y=<2>", [{ path: "/" }]);
    expect(odd).toMatch(SITEMAP_SHAPE);
    expect(odd).toContain("https://a.example/?x=1&amp;y=&lt;2&gt;/");
  });

  it("robots.txt allows the site, keeps crawlers out of /admin and /auth, names the sitemap", () => {
    expect(robotsTxt("https://serveurs.example.fr").split("\n")).toEqual([
      "User-agent: *",
      "Allow: /",
      "Disallow: /admin",
      "Disallow: /auth",
      "",
      "Sitemap: https://serveurs.example.fr/sitemap.xml",
      "",
    ]);
  });
});
