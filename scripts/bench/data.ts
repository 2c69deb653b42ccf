import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { slugify } from "../../app/lib/slug";
import type { OfferFilters } from "../../app/lib/offer-filters";
import { bumpCatalogueVersion } from "../../app/server/catalogue.server";
import type { Database } from "../../app/server/db.server";
import {
  findActiveOfferBySlug,
  listActiveOffers,
  listOfferChoices,
} from "../../app/server/offers.server";
import { offers, type NewOffer } from "../../app/server/schema.server";
import { loadDemoOffers } from "../../app/server/seed.server";

// Realistic catalogue at scale: the demo offers plus generated ones, reproducible (seeded PRNG).

function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CPUS = [
  { name: "AMD EPYC 7543 (32 cœurs / 64 threads)", family: "EPYC 7543", base: 420 },
  { name: "AMD EPYC 9254 (24 cœurs Zen 4)", family: "EPYC 9254", base: 520 },
  { name: "AMD EPYC 7313P (16 cœurs)", family: "EPYC 7313P", base: 260 },
  { name: "AMD EPYC 4344P (8 cœurs)", family: "EPYC 4344P", base: 110 },
  { name: "AMD Ryzen 9 7950X (16 cœurs / 32 threads)", family: "Ryzen 7950X", base: 150 },
  { name: "AMD Ryzen 7 7700 (8 cœurs)", family: "Ryzen 7700", base: 80 },
  { name: "Intel Xeon E-2388G (8 cœurs / 16 threads)", family: "Xeon E-2388G", base: 95 },
  { name: "Intel Xeon E-2236 (6 cœurs)", family: "Xeon E-2236", base: 55 },
  { name: "Intel Xeon Silver 4310 (12 cœurs)", family: "Xeon Silver 4310", base: 190 },
  { name: "Intel Xeon Gold 6338 (32 cœurs)", family: "Xeon Gold 6338", base: 480 },
  { name: "2 × Intel Xeon Gold 5318Y (48 cœurs)", family: "Bi-Xeon 5318Y", base: 640 },
  { name: "Intel Atom C3758 (8 cœurs)", family: "Atom C3758", base: 25 },
];
const RAMS = [
  ["16 Go DDR4", 0],
  ["32 Go DDR4 ECC", 10],
  ["64 Go DDR4 ECC", 30],
  ["128 Go DDR5", 60],
  ["256 Go DDR4 ECC", 120],
  ["384 Go DDR5 ECC", 180],
  ["512 Go DDR4 ECC", 260],
  ["1 To DDR5 ECC", 520],
] as const;
const STORAGES = [
  ["2 × 480 Go SSD", 0],
  ["2 × 1 To NVMe", 15],
  ["2 × 1,92 To NVMe", 35],
  ["2 × 3,84 To NVMe", 70],
  ["4 × 3,84 To NVMe Gen4", 140],
  ["4 × 12 To SATA + 2 × 480 Go SSD", 90],
  ["2 × 2 To HDD", 5],
] as const;
const NETWORKS = ["1 Gbit/s illimité", "10 Gbit/s illimité", "25 Gbit/s redondé", null];
const LINES = ["Performance", "Essentiel", "Pro", "Business", "Cloud", "Stockage", "Calcul"];
const DED_CONTRACTS = ["Mensuel sans engagement", "Engagement 6 mois", "Engagement 12 mois"];
const LOA_CONTRACTS = ["LOA 24 mois", "LOA 36 mois", "LOA 48 mois, option d'achat 1 %"];

export const BENCH_OFFERS = 10_000;

/** `count` offers in all: the demo catalogue plus generated ones, about 5 % of them inactive. */
export async function generateCatalogue(db: Database, count = BENCH_OFFERS): Promise<number> {
  const demo = await loadDemoOffers(db);
  const random = prng(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const start = Date.UTC(2024, 0, 1);
  const span = Date.UTC(2026, 9, 1) - start;
  const rows: NewOffer[] = [];
  for (let n = 1; rows.length < count - demo; n++) {
    const cpu = pick(CPUS);
    const [ram, ramPrice] = pick(RAMS);
    const [storage, storagePrice] = pick(STORAGES);
    const loa = random() < 0.3;
    const title = `${loa ? "LOA " : ""}${cpu.family} ${pick(LINES)} ${n}`;
    const price = (cpu.base + ramPrice + storagePrice) * (loa ? 0.8 : 1) * (0.85 + random() * 0.3);
    const createdAt = new Date(start + Math.floor(random() * span));
    const updatedAt = new Date(createdAt.getTime() + Math.floor(random() * 90 * 86_400_000));
    const withMeta = random() < 0.3;
    rows.push({
      slug: `${slugify(title)}`,
      title,
      reference: `${loa ? "LOA" : "DED"}-${cpu.family.replace(/[^A-Za-z0-9]+/g, "").toUpperCase()}-${String(n).padStart(5, "0")}`,
      type: loa ? "loa" : "dedicated",
      featured: random() < 0.05,
      cpu: cpu.name,
      ram,
      storage,
      network: pick(NETWORKS),
      price: price.toFixed(2),
      engagement: loa || random() < 0.4,
      contractType: loa ? pick(LOA_CONTRACTS) : pick(DED_CONTRACTS),
      metaTitle: withMeta ? `Serveur ${cpu.family} — ${ram}` : null,
      metaDescription: withMeta ? `${title} : ${cpu.name}, ${ram}, ${storage}.` : null,
      isActive: random() >= 0.05,
      description: `## ${title}\n\nUn serveur **${cpu.family}** avec ${ram} et ${storage}.\n\n- Livraison en moins de 24h\n- Protection DDoS incluse\n- Support 7j/7`,
      createdAt,
      updatedAt,
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await db.insert(offers).values(rows.slice(i, i + 500));
  }
  await bumpCatalogueVersion(db);
  // What PostgreSQL's autovacuum does after a bulk load (statistics, visibility map).
  await db.execute(sql`vacuum analyze`);
  return demo + rows.length;
}

type Query = { name: string; run: (db: Database) => Promise<unknown> };

const filters = (f: OfferFilters) => f;

/** The listing's and the offer page's queries, as the routes run them. */
export const queries = (slug: string): Query[] => [
  { name: "listing, page 1", run: (db) => listActiveOffers(filters({}), 1, 24, db) },
  { name: "listing, page 200", run: (db) => listActiveOffers(filters({}), 200, 24, db) },
  {
    name: "q=epyc&type=dedicated&min=50&max=500",
    run: (db) =>
      listActiveOffers(
        filters({ searchTerm: "epyc", type: "dedicated", minPrice: 50, maxPrice: 500 }),
        1,
        24,
        db,
      ),
  },
  {
    name: "q=ded-epyc-7543 (rare term)",
    run: (db) => listActiveOffers(filters({ searchTerm: "ded-epyc-7543" }), 1, 24, db),
  },
  {
    name: "min=2000 (price range)",
    run: (db) => listActiveOffers(filters({ minPrice: 2000 }), 1, 24, db),
  },
  { name: "offer by slug", run: (db) => findActiveOfferBySlug(slug, db) },
  { name: "contact selector (all, by title)", run: (db) => listOfferChoices(db) },
];

/** Index sets to drop, one at a time, to see what each buys. */
export const INDEX_SETS: { name: string; indexes: string[] }[] = [
  { name: "(is_active, created_at desc)", indexes: ["offers_active_created_idx"] },
  { name: "(is_active, price, id)", indexes: ["offers_active_price_id_idx"] },
  { name: "trigram GIN (search_text)", indexes: ["offers_search_trgm_idx"] },
  { name: "slug (unique)", indexes: ["offers_slug_unique"] },
];

async function timeQuery(db: Database, query: Query, runs: number): Promise<number> {
  await query.run(db); // warm
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await query.run(db);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

class Rollback extends Error {}

export type IndexReport = {
  engine: string;
  runs: number;
  /** Median milliseconds per query: with every index, then without each set. */
  medians: Record<string, Record<string, number>>;
  plans: Record<string, string>;
};

/** Median time of each query with all indexes and without each index set (dropped in a rolled-back transaction). */
export async function measureIndexes(
  db: Database,
  engine: string,
  slug: string,
  runs = 15,
): Promise<IndexReport> {
  const medians: Record<string, Record<string, number>> = {};
  const plans: Record<string, string> = {};
  const QUERIES = queries(slug);
  for (const query of QUERIES) medians[query.name] = {};
  // The baseline is measured before and after the others; the lower of the two is kept (the
  // machine is shared: this keeps a busy moment from making an index look useless).
  const baseline = async () => {
    for (const query of QUERIES) {
      const time = await timeQuery(db, query, runs);
      const previous = medians[query.name]["all indexes"];
      medians[query.name]["all indexes"] = previous === undefined ? time : Math.min(previous, time);
    }
  };
  await baseline();
  for (const set of INDEX_SETS) {
    try {
      await db.transaction(async (tx) => {
        for (const index of set.indexes) await tx.execute(sql.raw(`drop index ${index}`));
        for (const query of QUERIES) {
          medians[query.name][`without ${set.name}`] = await timeQuery(tx as never, query, runs);
        }
        throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
  }
  await baseline();
  // The plans of the searches' counts, the queries that scan the most.
  for (const [name, where] of [
    [
      "q=epyc&type=dedicated&min=50&max=500 (count)",
      "type = 'dedicated' and price >= 50 and price <= 500 and search_text like '%epyc%'",
    ],
    ["q=ded-epyc-7543 (count)", "search_text like '%ded-epyc-7543%'"],
    ["listing, page 1 (rows)", "true order by created_at desc, id desc limit 24"],
  ]) {
    const explain = await db.execute(
      sql.raw(
        where.includes("order by")
          ? `explain analyze select id from offers where is_active and ${where}`
          : `explain analyze select count(*) from offers where is_active and ${where}`,
      ),
    );
    const rows = (explain as unknown as { rows: Record<string, string>[] }).rows;
    plans[name] = rows.map((r) => Object.values(r)[0]).join("\n");
  }
  return { engine, runs, medians, plans };
}
