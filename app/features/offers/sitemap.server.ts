import { asc, eq } from "drizzle-orm";
import { FEED_PATH, LEGAL_NOTICE_PATH, OPENAPI_PATH } from "~/lib/site";
import { xmlEscape } from "./xml";
import { getCatalogueVersion } from "./catalogue.server";
import { db, type Database } from "~/platform/db.server";
import { offers } from "~/platform/schema.server";
import { siteConfig } from "~/platform/site.server";

export type SitemapEntry = { path: string; lastmod?: Date };

/** The sitemaps.org document for these entries, with absolute URLs under `baseUrl`. */
export function sitemapXml(baseUrl: string, entries: SitemapEntry[]): string {
  const urls = entries.map((entry) => {
    const lastmod = entry.lastmod ? `<lastmod>${entry.lastmod.toISOString()}</lastmod>` : "";
    return `<url><loc>${xmlEscape(`${baseUrl}${entry.path}`)}</loc>${lastmod}</url>`;
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`
  );
}

/**
 * Home, listing, contact, privacy policy, legal notice, the Atom feed, the OpenAPI document and every active offer with its updated_at. The listing and the contact
 * page (whose selector lists the offers) change with the catalogue: their lastmod is the catalogue
 * version's date. One sitemap holds 50,000 URLs; past that it would need a sitemap index.
 */
export async function sitemapEntries(database: Database = db()): Promise<SitemapEntry[]> {
  const [rows, catalogue] = await Promise.all([
    database
      .select({ slug: offers.slug, updatedAt: offers.updatedAt })
      .from(offers)
      .where(eq(offers.isActive, true))
      .orderBy(asc(offers.slug)),
    getCatalogueVersion(database),
  ]);
  // The catalogue version's date covers deletions too; before any write it has none.
  let catalogueDate = catalogue.updatedAt ?? undefined;
  for (const row of rows) {
    if (!catalogueDate || row.updatedAt > catalogueDate) catalogueDate = row.updatedAt;
  }
  return [
    { path: "/" },
    { path: "/offers", lastmod: catalogueDate },
    { path: "/contact", lastmod: catalogueDate },
    { path: "/confidentialite" },
    { path: LEGAL_NOTICE_PATH },
    // The catalogue for programs (issue 30): the feed and the API's document.
    { path: FEED_PATH, lastmod: catalogueDate },
    { path: OPENAPI_PATH },
    ...rows.map((row) => ({ path: `/offers/${row.slug}`, lastmod: row.updatedAt })),
  ];
}

/** The sitemap of the site as it is now (its route answers it as XML). */
export async function currentSitemapXml(): Promise<string> {
  return sitemapXml(siteConfig().baseUrl, await sitemapEntries());
}

/** Allows the public site, keeps crawlers out of the administrator area, points to the sitemap. */
export function robotsTxt(baseUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /auth",
    "",
    `Sitemap: ${baseUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
