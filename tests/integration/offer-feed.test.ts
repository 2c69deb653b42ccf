import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { atomFeed, feedOffers, offerFeedXml } from "../../app/features/offers/offer-feed.server";
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

describe(`the Atom feed of new and back-in-stock offers (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    await insertOffers(database.db, [
      buildOffer(1, { title: "En stock 24 h", delivery: "stock_24h", updatedAt: day(1) }),
      buildOffer(2, { title: "Épuisé", delivery: "sold_out", updatedAt: day(2) }),
      buildOffer(3, {
        title: "Sur commande",
        delivery: "on_order",
        deliveryDays: 10,
        updatedAt: day(3),
      }),
      buildOffer(4, { title: "R&D <72 h>", delivery: "stock_72h", updatedAt: day(10) }),
      buildOffer(5, { title: "Masquée", isActive: false, updatedAt: day(20) }),
    ]);
  });

  it("lists the active offers deliverable now, most recently updated first, escaped", async () => {
    const xml = await offerFeedXml(SITE, database.db);
    // Offer 4 changed after its creation (day 4, updated day 10); offer 1 never did.
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
    await database.db
      .update(offers)
      .set({ delivery: "stock_24h", updatedAt: sql`now()` })
      .where(eq(offers.slug, "offre-2"));
    const xml = await offerFeedXml(SITE, database.db);
    expect(titles(xml)[0]).toBe("En stock : Épuisé");
    const id = /<entry><id>([^<]*)<\/id>/.exec(xml)?.[1];
    expect(id).toMatch(/^https:\/\/serveurs\.example\.fr\/offers\/offre-2#\d{4}-/);
    expect(before).not.toContain(id);
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
