import { and, desc, eq, inArray } from "drizzle-orm";
import { AVAILABLE_NOW, deliveryLabel } from "~/lib/offer-fields";
import { OFFER_TYPE_LABELS } from "~/lib/domain";
import { monthlyLabel, type Pricing } from "~/lib/money";
import { FEED_PATH, FEED_TITLE_SUFFIX } from "~/lib/site";
import { xmlElement } from "./xml";
import { getCatalogueVersion } from "./catalogue.server";
import { db, type Database } from "~/platform/db.server";
import { offers } from "~/platform/schema.server";

// /offers.atom (issue 30): the offers that can be delivered now, the most recently arrived first. A
// new offer enters it when it is created in stock; an offer that comes back in stock enters it again
// as a new entry (it was out of the feed while sold out or on order), dated by its available_since:
// set at creation and whenever an update makes the offer deliverable, never by other edits.

export const FEED_SIZE = 50;

export type FeedOffer = {
  id: number;
  slug: string;
  title: string;
  type: "dedicated" | "loa";
  cpu: string;
  ram: string;
  storage: string;
  price: string;
  delivery: (typeof offers.delivery.enumValues)[number];
  deliveryDays: number | null;
  createdAt: Date;
  availableSince: Date;
};

/** The offers in stock, the most recently arrived first. */
export function feedOffers(limit = FEED_SIZE, database: Database = db()): Promise<FeedOffer[]> {
  return database
    .select({
      id: offers.id,
      slug: offers.slug,
      title: offers.title,
      type: offers.type,
      cpu: offers.cpu,
      ram: offers.ram,
      storage: offers.storage,
      price: offers.price,
      delivery: offers.delivery,
      deliveryDays: offers.deliveryDays,
      createdAt: offers.createdAt,
      availableSince: offers.availableSince,
    })
    .from(offers)
    .where(and(eq(offers.isActive, true), inArray(offers.delivery, [...AVAILABLE_NOW])))
    .orderBy(desc(offers.availableSince), desc(offers.id))
    .limit(limit);
}

/** Deliverable since its creation (the same transaction's now()): a new offer, not one back. */
export function isNewOffer(offer: Pick<FeedOffer, "createdAt" | "availableSince">): boolean {
  return offer.availableSince.getTime() - offer.createdAt.getTime() < 1000;
}

/** The Atom 1.0 document (RFC 4287) of these offers. */
export function atomFeed(
  site: { name: string; baseUrl: string; pricing: Pricing },
  entries: readonly FeedOffer[],
  updated: Date,
): string {
  const self = `${site.baseUrl}${FEED_PATH}`;
  const items = entries.map((offer) => {
    const url = `${site.baseUrl}/offers/${offer.slug}`;
    const title = `${isNewOffer(offer) ? "Nouvelle offre" : "En stock"} : ${offer.title}`;
    const summary = [
      OFFER_TYPE_LABELS[offer.type],
      `${offer.cpu}, ${offer.ram}, ${offer.storage}`,
      monthlyLabel(offer.price, site.pricing),
      deliveryLabel(offer),
    ].join(" · ");
    return [
      "<entry>",
      // One entry per offer and arrival: an offer back in stock is announced again.
      xmlElement("id", {}, `${url}#${offer.availableSince.toISOString()}`),
      xmlElement("title", { type: "text" }, title),
      xmlElement("link", { rel: "alternate", type: "text/html", href: url }),
      xmlElement("published", {}, offer.createdAt.toISOString()),
      xmlElement("updated", {}, offer.availableSince.toISOString()),
      xmlElement("summary", { type: "text" }, summary),
      "</entry>",
    ].join("");
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr">`,
    xmlElement("id", {}, self),
    xmlElement("title", { type: "text" }, `${site.name} — ${FEED_TITLE_SUFFIX}`),
    xmlElement(
      "subtitle",
      { type: "text" },
      "Les serveurs dédiés et offres LOA livrables immédiatement, les derniers arrivés en premier.",
    ),
    xmlElement("updated", {}, updated.toISOString()),
    xmlElement("link", { rel: "self", type: "application/atom+xml", href: self }),
    xmlElement("link", { rel: "alternate", type: "text/html", href: `${site.baseUrl}/offers` }),
    `<author>${xmlElement("name", {}, site.name)}</author>`,
    ...items,
    "</feed>",
    "",
  ].join("\n");
}

/** The feed as the route answers it; dated by its newest entry, else the catalogue's last change. */
export async function offerFeedXml(
  site: { name: string; baseUrl: string; pricing: Pricing },
  database: Database = db(),
): Promise<string> {
  const [entries, catalogue] = await Promise.all([
    feedOffers(FEED_SIZE, database),
    getCatalogueVersion(database),
  ]);
  const updated = entries[0]?.availableSince ?? catalogue.updatedAt ?? new Date(0);
  return atomFeed(site, entries, updated);
}
