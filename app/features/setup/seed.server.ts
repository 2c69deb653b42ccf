import { count, sql } from "drizzle-orm";
import { slugify } from "~/lib/slug";
import { bumpCatalogueVersion } from "~/features/offers/catalogue.server";
import { readLeaseScale, seedLeaseScale } from "~/features/offers/lease.server";
import { newOfferPriceSource, priceColumns } from "~/lib/offer-price";
import type { Database } from "~/platform/db.server";
import { datacenters, offers, replyTemplates } from "~/platform/schema.server";
import { DEMO_DATACENTERS, DEMO_OFFERS, DEMO_REPLY_TEMPLATES, demoOffer } from "./demo-catalogue";

export { DEMO_OFFERS } from "./demo-catalogue";

/** Upserts the demo offers by slug, spaced one day apart so that 'newest first' is stable. */
export async function loadDemoOffers(db: Database, now = new Date()): Promise<number> {
  await db
    .insert(datacenters)
    .values([...DEMO_DATACENTERS])
    .onConflictDoNothing();
  // By title: reloading the demo neither doubles them nor undoes the team's edits.
  await db
    .insert(replyTemplates)
    .values([...DEMO_REPLY_TEMPLATES])
    .onConflictDoNothing();
  await seedLeaseScale(db);
  const scale = await readLeaseScale(db);
  const rows = DEMO_OFFERS.map((offer, index) => {
    const createdAt = new Date(now.getTime() - index * 86_400_000);
    const row = {
      ...demoOffer(index),
      pricedMonths: null,
      slug: slugify(offer.title),
      createdAt,
      updatedAt: createdAt,
    };
    // An administrator's scale that prices none of a demo lease's durations leaves its own terms.
    return { ...row, ...priceColumns(newOfferPriceSource(row), scale) };
  });
  await db
    .insert(offers)
    .values(rows)
    .onConflictDoUpdate({
      target: offers.slug,
      set: Object.fromEntries(
        Object.keys(rows[0])
          .filter((k) => k !== "slug")
          .map((k) => {
            const column = offers[k as keyof typeof offers.$inferInsert];
            return [k, sql.raw(`excluded.${column.name}`)];
          }),
      ),
    });
  await bumpCatalogueVersion(db);
  return rows.length;
}

/** On a first start: loads the demo offers if the catalogue is empty. */
export async function seedIfEmpty(db: Database): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(offers);
  if (n > 0) return false;
  await loadDemoOffers(db);
  return true;
}
