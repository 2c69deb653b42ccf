import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parseOfferForm } from "../../app/features/offers/offer-form-schema";
import { offerToFormValues, type OfferFormValues } from "../../app/features/offers/offer-form";
import { atomFeed, feedOffers, offerFeedXml } from "../../app/features/offers/offer-feed.server";
import { updateOffer } from "../../app/features/offers/offers.server";
import { offers } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase();
const SITE = {
  name: "ServeurPro",
  baseUrl: "https://serveurs.example.fr",
  pricing: { vatRate: 20, display: "ht" as const },
};

/** Entries' titles, in the feed's order. */
const titles = (xml: string) =>
  [...xml.matchAll(/<entry><id>[^<]*<\/id><title type="text">([^<]*)<\/title>/g)].map((m) => m[1]);

/** Offer `slug` saved by the editor's command with `fields` changed. */
async function edit(slug: string, fields: Partial<OfferFormValues>) {
  const [row] = await database.db.select().from(offers).where(eq(offers.slug, slug));
  const parsed = parseOfferForm({ ...offerToFormValues(row), ...fields });
  if (!parsed.success) throw new Error(parsed.message);
  await updateOffer(row.id, parsed.data, database.db);
}
const entryOf = (xml: string, slug: string) =>
  new RegExp(`<entry><id>[^#]*/${slug}#([^<]*)</id>.*?<updated>([^<]*)</updated>`).exec(xml);

describe(`the Atom feed of new and back-in-stock offers (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    await insertOffers(database.db, [
      buildOffer(1, { title: "En stock 24 h", delivery: "stock_24h", availableSince: day(1) }),
      buildOffer(2, { title: "Épuisé", delivery: "sold_out", availableSince: day(2) }),
      buildOffer(3, {
        title: "Sur commande",
        delivery: "on_order",
        deliveryDays: 10,
        availableSince: day(3),
      }),
      // Back in stock on day 10 (created day 4), then edited on day 20: dated by its return.
      buildOffer(4, {
        title: "R&D <72 h>",
        delivery: "stock_72h",
        availableSince: day(10),
        updatedAt: day(20),
      }),
      buildOffer(5, { title: "Masquée", isActive: false, availableSince: day(20) }),
    ]);
  });

  it("lists the active offers deliverable now, the latest arrived first, escaped", async () => {
    const xml = await offerFeedXml(SITE, database.db);
    // Offer 4 came back in stock after its creation (day 4, back day 10); offer 1 is new.
    expect(titles(xml)).toEqual([
      "En stock : R&amp;D &lt;72 h&gt;",
      "Nouvelle offre : En stock 24 h",
    ]);
    expect(xml).toContain(
      '<link rel="alternate" type="text/html" href="https://serveurs.example.fr/offers/offre-4"/>',
    );
    expect(xml).toMatch(/<updated>2026-01-10T00:00:00\.000Z<\/updated>\n<link rel="self"/);
    expect(xml).toMatch(
      /<summary type="text">Serveur Dédié · Intel Xeon E-2388G, 64 Go DDR4, 2 × 1 To NVMe · 100,00\s€ HT\/mois · En stock — livraison sous 72 h<\/summary>/,
    );
  });

  it("announces an offer back in stock again, at the top, as a new entry", async () => {
    const before = await offerFeedXml(SITE, database.db);
    // An edit of an offer in stock (its price) neither dates nor moves its entry.
    await edit("offre-1", { price: "90.00" });
    expect(entryOf(await offerFeedXml(SITE, database.db), "offre-1")?.slice(1)).toEqual(
      entryOf(before, "offre-1")?.slice(1),
    );
    const start = Date.now() - 1000;
    await edit("offre-2", { delivery: "stock_24h" });
    const xml = await offerFeedXml(SITE, database.db);
    expect(titles(xml)[0]).toBe("En stock : Épuisé");
    const id = /<entry><id>([^<]*)<\/id>/.exec(xml)?.[1];
    expect(id).toMatch(/^https:\/\/serveurs\.example\.fr\/offers\/offre-2#\d{4}-/);
    expect(before).not.toContain(id);
    const [, since, updated] = entryOf(xml, "offre-2") ?? [];
    expect(updated).toBe(since);
    expect(Date.parse(updated)).toBeGreaterThanOrEqual(start);
    // Staying deliverable (24 h to 72 h) keeps the date; sold out and back dates it again.
    await edit("offre-2", { delivery: "stock_72h" });
    expect(entryOf(await offerFeedXml(SITE, database.db), "offre-2")?.[2]).toBe(updated);
    await edit("offre-2", { delivery: "sold_out" });
    expect(entryOf(await offerFeedXml(SITE, database.db), "offre-2")).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await edit("offre-2", { delivery: "stock_24h" });
    const again = entryOf(await offerFeedXml(SITE, database.db), "offre-2")?.[2] ?? "";
    expect(Date.parse(again)).toBeGreaterThan(Date.parse(updated));
  });

  it("keeps at most the newest entries asked, and writes a valid empty feed", async () => {
    expect((await feedOffers(1, database.db)).map((o) => o.slug)).toEqual(["offre-2"]);
    const empty = atomFeed(SITE, [], new Date(0));
    expect(empty).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr">',
        "<id>https://serveurs.example.fr/offers.atom</id>",
        '<title type="text">ServeurPro — nouvelles offres et retours en stock</title>',
        '<subtitle type="text">Les serveurs dédiés et offres LOA livrables immédiatement, les derniers arrivés en premier.</subtitle>',
        "<updated>1970-01-01T00:00:00.000Z</updated>",
        '<link rel="self" type="application/atom+xml" href="https://serveurs.example.fr/offers.atom"/>',
        '<link rel="alternate" type="text/html" href="https://serveurs.example.fr/offers"/>',
        "<author><name>ServeurPro</name></author>",
        "</feed>",
        "",
      ].join("\n"),
    );
  });
});
