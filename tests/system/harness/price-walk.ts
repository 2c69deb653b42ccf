import { asc, eq } from "drizzle-orm";
import { toCents } from "../../../app/lib/money";
import { scalePrice, type LeaseScale } from "../../../app/lib/offer-price";
import { OFFER_PRICE_CARD, SELECTED_PRICE } from "../../../app/lib/dom-hooks";
import type { ApiOfferList } from "../../../app/features/offers/offer-api-schema";
import { readLeaseScale } from "../../../app/features/offers/lease.server";
import { openPglite } from "../../../app/platform/db.server";
import { offers } from "../../../app/platform/schema.server";
import { generateCatalogue } from "../../../scripts/bench/data";
import { copyDataTemplate } from "./server-process";

// One price per offer (issue 39): every public surface of every active offer, read over HTTP from
// a built server and parsed, against the rule (decision 038) applied to the stored offers. The
// system test runs it on the demo catalogue and a slice of the bench's; `npm run bench:prices`
// at 10,000 offers.

/** What the rule gives an offer (amounts in cents HT). */
export type ExpectedPrice = {
  id: number;
  slug: string;
  reference: string;
  monthly: number;
  lease: { months: number; option: number | null; total: number } | null;
};

/** The stored offer as the rule reads it (a full offer row fits). */
export type RuleSource = {
  id: number;
  slug: string;
  reference: string;
  type: "dedicated" | "loa";
  price: string;
  financedAmount: string | null;
  leaseDurations: number[] | null;
  loaMonths: number | null;
  loaPurchaseOption: string | null;
};

/**
 * An embedded data directory holding the bench's catalogue at `count` offers (the demo's among
 * them), for a server to start on; answers its active offers and the scale as stored.
 */
export async function preparePriceCatalogue(dataDir: string, count: number) {
  copyDataTemplate(dataDir);
  const handle = await openPglite(dataDir);
  try {
    await handle.migrate(handle.db);
    await generateCatalogue(handle.db, count);
    const rows = await handle.db
      .select()
      .from(offers)
      .where(eq(offers.isActive, true))
      .orderBy(asc(offers.id));
    return { rows, scale: await readLeaseScale(handle.db) };
  } finally {
    await handle.close();
  }
}

/**
 * The rule, stated again here on purpose: an LOA offer the scale prices shows the rent, option
 * and total of its default duration; any other offer its typed price and terms.
 */
export function expectedPrice(offer: RuleSource, scale: LeaseScale): ExpectedPrice {
  const { id, slug, reference } = offer;
  const quote = scalePrice(offer, scale);
  if (quote) {
    const lease = { months: quote.months, option: quote.option, total: quote.total };
    return { id, slug, reference, monthly: quote.monthly, lease };
  }
  const monthly = toCents(offer.price);
  const option = offer.loaPurchaseOption === null ? null : toCents(offer.loaPurchaseOption);
  const months = offer.type === "loa" ? offer.loaMonths : null;
  const lease = months ? { months, option, total: monthly * months + (option ?? 0) } : null;
  return { id, slug, reference, monthly, lease };
}

/** What one surface shows of one offer; what it does not show is left out. */
export type Seen = {
  monthly?: number;
  months?: number;
  option?: number | null;
  total?: number;
};

/** Surface name -> slug -> what it shows. */
export type Sightings = Map<string, Map<string, Seen>>;

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&#x27;": "'",
  "&#39;": "'",
  "&quot;": '"',
  "&lt;": "<",
  "&gt;": ">",
  "&nbsp;": " ",
};

/** The text of an HTML fragment as read: tags out, entities decoded, spaces folded. */
export function textOf(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(?:amp|#x27|#39|quot|lt|gt|nbsp);/g, (e) => ENTITIES[e])
    .replace(/[\s\u00a0\u202f]+/g, " ")
    .trim();
}

const AMOUNT = /(\d{1,3}(?:[\s\u00a0\u202f]\d{3})*,\d{2})\s?€/;

/** The first amount of a French text ('1 884,80 € HT/mois') in cents; throws when there is none. */
export function centsIn(text: string): number {
  const match = AMOUNT.exec(text);
  if (!match) throw new Error(`no amount in « ${text} »`);
  return toCents(match[1].replace(/[\s\u00a0\u202f]/g, "").replace(",", "."));
}

/** Every `<dt>`/`<dd>` pair of a fragment, as label (without ' :') and text. */
export function definitions(html: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const [, term, value] of html.matchAll(
    /<dt\b[^>]*>(.*?)<\/dt>\s*<dd\b[^>]*>(.*?)<\/dd>/gs,
  )) {
    pairs.set(textOf(term).replace(/\s*:$/, ""), textOf(value));
  }
  return pairs;
}

/** An LOA's terms from `Durée`, `Option d'achat`, `Coût total` pairs (absent: left out). */
function leaseTerms(pairs: Map<string, string>): Seen {
  const duration = pairs.get("Durée");
  if (!duration) return {};
  const option = pairs.get("Option d'achat");
  return {
    months: Number(/^(\d+) mois$/.exec(duration)?.[1]),
    option: option === undefined ? null : centsIn(option),
    total: centsIn(pairs.get("Coût total") ?? ""),
  };
}

export type Fetcher = (path: string) => Promise<Response>;

async function read(get: Fetcher, path: string): Promise<string> {
  const response = await get(path);
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return response.text();
}

function see(sightings: Sightings, surface: string, slug: string, seen: Seen) {
  const bySlug = sightings.get(surface) ?? new Map<string, Seen>();
  if (bySlug.has(slug)) throw new Error(`${surface} shows ${slug} twice`);
  sightings.set(surface, bySlug.set(slug, seen));
}

/** The API's pages and the listing's cards, page by page. */
async function walkLists(get: Fetcher, sightings: Sightings) {
  for (let page = 1, pages = 1; page <= pages; page++) {
    const list = JSON.parse(await read(get, `/api/offers?page=${page}`)) as ApiOfferList;
    pages = list.pageCount;
    for (const offer of list.offers) {
      const { loa } = offer;
      see(sightings, "api", offer.slug, {
        monthly: Math.round(offer.price.monthlyHt * 100),
        ...(loa && {
          months: loa.months,
          option: loa.purchaseOptionHt === null ? null : Math.round(loa.purchaseOptionHt * 100),
          total: Math.round(loa.totalHt * 100),
        }),
      });
      // The API's own simulator agrees at the offer's duration.
      const rent = offer.lease?.durations.find((d) => d.months === loa?.months);
      if (rent)
        see(sightings, "api lease", offer.slug, { monthly: Math.round(rent.monthlyHt * 100) });
    }
    const html = await read(get, page === 1 ? "/offers" : `/offers?page=${page}`);
    const cards = [...html.matchAll(/<a href="\/offers\/([a-z0-9-]+)" class="after:absolute/g)];
    cards.forEach((card, i) => {
      const body = html.slice(card.index, cards[i + 1]?.index ?? html.length);
      const price = /<p class="text-2xl font-bold text-primary">(.*?)<\/p>/s.exec(body);
      if (!price) throw new Error(`card of ${card[1]} without its price`);
      see(sightings, "listing card", card[1], { monthly: centsIn(textOf(price[1])) });
    });
  }
}

/** The Atom feed's entries (the offers deliverable now, at most 50). */
async function walkFeed(get: Fetcher, sightings: Sightings) {
  const xml = await read(get, "/offers.atom");
  for (const [entry] of xml.matchAll(/<entry>.*?<\/entry>/gs)) {
    const slug = /<link rel="alternate" [^>]*href="[^"]*\/offers\/([a-z0-9-]+)"/.exec(entry)?.[1];
    const summary = /<summary type="text">(.*?)<\/summary>/s.exec(entry)?.[1] ?? "";
    const price = textOf(summary)
      .split(" · ")
      .find((part) => part.endsWith("/mois"));
    if (!slug || !price) throw new Error(`feed entry without its offer or price: ${entry}`);
    see(sightings, "atom", slug, { monthly: centsIn(price) });
  }
}

/** The offer page: its JSON-LD, its price card and its contract terms. */
async function walkOfferPage(get: Fetcher, sightings: Sightings, slug: string) {
  const html = await read(get, `/offers/${slug}`);
  const product = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)]
    .map((m) => JSON.parse(m[1]) as { offers?: { price: string } })
    .find((data) => data.offers);
  if (!product?.offers) throw new Error(`/offers/${slug} without its Product`);
  see(sightings, "json-ld", slug, { monthly: toCents(product.offers.price) });
  const start = html.indexOf(OFFER_PRICE_CARD);
  const card = html.slice(start, html.indexOf("</aside>", start));
  const monthly = /<p class="text-3xl font-bold text-primary[^"]*">(.*?)<span/s.exec(card);
  if (!monthly) throw new Error(`/offers/${slug} without its price card`);
  see(sightings, "offer page card", slug, {
    monthly: centsIn(textOf(monthly[1])),
    ...leaseTerms(definitions(card)),
  });
  const terms = html.slice(html.indexOf("Conditions contractuelles"), start);
  const facts = leaseTerms(definitions(terms));
  if (facts.months) see(sightings, "offer page terms", slug, facts);
  const contact = /href="\/contact\?offer=(\d+)(?:&amp;configuration=([^"]*))?"/.exec(html);
  if (!contact) throw new Error(`/offers/${slug} without its contact link`);
  return { id: Number(contact[1]), configuration: decodeURIComponent(contact[2] ?? "") };
}

/** The comparison of up to 3 offers: its `Prix HT` row and its `Contrat` row's terms. */
async function walkComparison(get: Fetcher, sightings: Sightings, slugs: string[]) {
  const html = await read(get, `/comparer?offres=${slugs.join(",")}`);
  const head = html.slice(html.indexOf("<thead"), html.indexOf("</thead>"));
  const order = [...head.matchAll(/<a\b[^>]*\bhref="\/offers\/([a-z0-9-]+)"/g)].map((m) => m[1]);
  const row = (label: string) => {
    const match = new RegExp(`<th scope="row"[^>]*>${label}</th>(.*?)</tr>`, "s").exec(html);
    return [...(match?.[1] ?? "").matchAll(/<td\b[^>]*>(.*?)<\/td>/gs)].map((m) => m[1]);
  };
  const prices = row("Prix HT");
  const contracts = row("Contrat");
  if (order.length !== slugs.length || prices.length !== slugs.length) {
    throw new Error(`comparison of ${slugs.join(",")} shows ${order.join(",")}`);
  }
  order.forEach((slug, i) =>
    see(sightings, "comparison", slug, {
      monthly: centsIn(textOf(prices[i])),
      ...leaseTerms(definitions(contracts[i] ?? "")),
    }),
  );
}

/** The contact form's `Offre sélectionnée` and the live offer search's answer for the offer. */
async function walkContact(get: Fetcher, sightings: Sightings, offer: ExpectedPrice) {
  const html = await read(get, `/contact?offer=${offer.id}`);
  const selected = new RegExp(`${SELECTED_PRICE}="">(.*?)</p>`, "s").exec(html);
  if (!selected) throw new Error(`/contact?offer=${offer.id} without its selected offer`);
  see(sightings, "contact selected offer", offer.slug, { monthly: centsIn(textOf(selected[1])) });
  const search = JSON.parse(
    await read(get, `/contact/offers?q=${encodeURIComponent(offer.reference)}`),
  ) as { offers: { id: number; price: string }[] };
  const found = search.offers.find((o) => o.id === offer.id);
  if (!found) throw new Error(`the offer search for ${offer.reference} misses offer ${offer.id}`);
  see(sightings, "contact offer search", offer.slug, { monthly: centsIn(found.price) });
}

/**
 * Reads every surface of the active offers `expected` lists (the feed's at most 50 among them);
 * answers what was seen and the contact links (offer id and configuration) of the offer pages.
 */
export async function walkSurfaces(get: Fetcher, expected: readonly ExpectedPrice[]) {
  const sightings: Sightings = new Map();
  await walkLists(get, sightings);
  await walkFeed(get, sightings);
  const contacts = new Map<string, { id: number; configuration: string }>();
  for (const offer of expected)
    contacts.set(offer.slug, await walkOfferPage(get, sightings, offer.slug));
  for (let i = 0; i < expected.length; i += 3) {
    await walkComparison(
      get,
      sightings,
      expected.slice(i, i + 3).map((o) => o.slug),
    );
  }
  for (const offer of expected) await walkContact(get, sightings, offer);
  return { sightings, contacts };
}

/** Surfaces that must show every active offer (the feed shows those deliverable now). */
export const EVERY_OFFER = [
  "api",
  "listing card",
  "json-ld",
  "offer page card",
  "comparison",
  "contact selected offer",
  "contact offer search",
];

/**
 * What differs from the rule, one line each ('comparison loa-pme-36-mois: monthly 41250 ≠ 40950');
 * an offer missing from a surface that lists every one, or shown where it is not active, too.
 */
export function mismatches(expected: readonly ExpectedPrice[], sightings: Sightings): string[] {
  const bySlug = new Map(expected.map((offer) => [offer.slug, offer]));
  const found: string[] = [];
  for (const surface of EVERY_OFFER) {
    const seen = sightings.get(surface) ?? new Map();
    for (const slug of bySlug.keys()) if (!seen.has(slug)) found.push(`${surface} ${slug}: absent`);
  }
  for (const [surface, seen] of sightings) {
    for (const [slug, shown] of seen) {
      const rule = bySlug.get(slug);
      if (!rule) {
        found.push(`${surface} ${slug}: not an active offer`);
        continue;
      }
      if ("monthly" in shown && shown.monthly !== rule.monthly) {
        found.push(`${surface} ${slug}: ${shown.monthly} ≠ ${rule.monthly}`);
      }
      for (const key of ["months", "option", "total"] as const) {
        if (key in shown && shown[key] !== rule.lease?.[key]) {
          found.push(`${surface} ${slug}: ${key} ${shown[key]} ≠ ${rule.lease?.[key]}`);
        }
      }
    }
  }
  return found;
}
