import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushOfferViews } from "../../app/features/attribution/offer-views.server";
import { offers, offerViews } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { startAppServer, type AppServer } from "./harness/app-server";

// Issue 42: the built app counts an offer page's views, the page cache's hits too (they never reach
// React Router), robots and other methods left out; nothing about the visitor is kept.

let app: AppServer;

beforeAll(async () => {
  app = await startAppServer({ PUBLIC_RENDER_RATE_PER_MINUTE: "0" });
}, 120_000);
afterAll(async () => {
  await app?.close();
});

describe(`offer views (${testDatabaseKind})`, () => {
  it("counts every page served, cached or not, and no robot's", async () => {
    const [offer] = await app.database.db
      .select({ id: offers.id, slug: offers.slug })
      .from(offers)
      .where(eq(offers.isActive, true))
      .limit(1);
    // A browser's User-Agent: Node's own (`node`) is a robot's to isbot.
    const browser = {
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    };
    const page = (init?: RequestInit) =>
      fetch(`${app.baseUrl}/offers/${offer.slug}`, {
        ...init,
        headers: { ...browser, ...init?.headers },
      });
    const caches: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await page();
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      caches.push(response.headers.get("x-cache"));
    }
    expect(caches.slice(1)).toEqual(["HIT", "HIT"]);
    const robot = await page({
      headers: { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" },
    });
    await robot.arrayBuffer();
    await (await page({ method: "HEAD" })).arrayBuffer();
    await (await fetch(`${app.baseUrl}/offers/pas-une-offre`)).arrayBuffer();
    await flushOfferViews(app.database.db);
    const rows = await app.database.db
      .select({ views: offerViews.views })
      .from(offerViews)
      .where(and(eq(offerViews.offerId, offer.id)));
    expect(rows).toEqual([{ views: 3 }]);
    expect(await app.database.db.select().from(offerViews)).toHaveLength(1);
  });
});
