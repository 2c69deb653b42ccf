// What the data at scale is measured by: the listing's queries, what each index buys, the
// dashboard's plans, and prepareData(), the full run's data with those measures.
import { performance } from "node:perf_hooks";
import { and, asc, eq, like, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { parseOfferFilters } from "../../app/lib/offer-filters";
import { setCatalogueMemoReader } from "../../app/features/offers/catalogue-memo.server";
import * as catalogue from "../../app/features/offers/catalogue.server";
import { setCurrentDatabase } from "../../app/platform/db.server";
import type { Database, DatabaseHandle } from "../../app/platform/db.server";
import * as listing from "../../app/features/offers/offer-listing.server";
import { listOfferChoices } from "../../app/features/offers/offer-choices.server";
import * as schema from "../../app/platform/schema.server";
import { offers } from "../../app/platform/schema.server";
import { createSession } from "../../app/features/accounts/sessions.server";
import { upsertAdmin } from "../../app/features/accounts/users.server";
import { median } from "./tools";
import {
  BENCH_ADMIN,
  BENCH_OFFERS,
  generateCatalogue,
  generateContactRequests,
  pageIds,
} from "./data";

type Query = { name: string; run: (db: Database) => Promise<unknown> };

const LISTINGS =
  "|page=200|q=epyc&type=dedicated&min=50&max=500|q=ded-epyc-7543|min=2000|min=50&max=500|type=loa&location=paris&available=1|ram_min=128";

/**
 * The listing's variants as the site, the API and the offer search answer them (the catalogue's
 * index held, the counts beside its filters; in a transaction, the index read again each time);
 * the index's read, once per catalogue version; the offer page's queries.
 */
const queries = (slug: string): Query[] => [
  ...LISTINGS.split("|").flatMap((query): Query[] => {
    const { filters, page } = parseOfferFilters(new URLSearchParams(query));
    return [
      {
        name: `listing ?${query}`,
        run: (db) => listing.listActiveOffers(filters, page, 24, db, "newest"),
      },
    ];
  }),
  { name: "catalogue index (once per version)", run: (db) => listing.loadCatalogueIndex(db) },
  { name: "offer by slug", run: (db) => listing.findActiveOfferBySlug(slug, db) },
  { name: "contact selector (all, by title)", run: (db) => listOfferChoices(db) },
];

/** Indexes to drop, one at a time, to see what each buys. */
const INDEXES = {
  "(is_active, created_at desc)": "offers_active_created_idx",
  "(is_active, price, id)": "offers_active_price_id_idx",
  "trigram GIN (search_text)": "offers_search_trgm_idx",
  "slug (unique)": "offers_slug_unique",
};

/** The plans of the searches' counts, the queries that scan the most, and of the first page. */
const PLANS = {
  "q=epyc&type=dedicated&min=50&max=500 (count)":
    "select count(*) from offers where is_active and type = 'dedicated' and price >= 50 and price <= 500 and search_text like '%epyc%'",
  "q=epyc&type=dedicated&min=50&max=500 (the counts' cells)":
    "select type, engagement, delivery, datacenter, count(*) from offers where is_active and price >= 50 and price <= 500 and search_text like '%epyc%' group by 1, 2, 3, 4",
  "q=ded-epyc-7543 (count)":
    "select count(*) from offers where is_active and search_text like '%ded-epyc-7543%'",
  "listing, page 1 (rows)":
    "select id from offers where is_active order by created_at desc, id desc limit 24",
};

/** The catalogue memo as the server has it on PostgreSQL (the version read per call), this engine's own. */
function readVersionPerCall(db: Database, engine: string) {
  const { getCatalogueVersion: read } = catalogue;
  setCatalogueMemoReader(async () => ({ version: `${engine} ${(await read(db)).version}` }));
}

/** Each query's median time, the queries run in turns (a busy moment of the machine hits them all). */
async function timeQueries(db: Database, queries: Query[], runs: number): Promise<number[]> {
  for (const query of queries) await query.run(db); // warm
  const times = queries.map((): number[] => []);
  // Each round starts one query further on: no query always follows the same other one.
  for (let i = 0; i < runs; i++)
    for (const q of [...queries.keys()].map((k) => (k + i) % queries.length)) {
      const start = performance.now();
      await queries[q].run(db);
      times[q].push(performance.now() - start);
    }
  return times.map((t) => median(t));
}

/**
 * The listing at scale (issue 31): each variant's median as the server answers it (the catalogue's
 * index held, the memo reading the version per call), against the SQL page and total alone; the
 * index's read (once per catalogue version) and the heap it holds.
 */
export async function measureListing(handle: DatabaseHandle, engine: string, runs = 25) {
  await handle.withStartupLock((db) => handle.migrate(db));
  const offerCount = await generateCatalogue(handle.db, BENCH_OFFERS);
  setCurrentDatabase(handle);
  readVersionPerCall(handle.db, engine);
  try {
    const QUERIES = queries("").filter(
      (q) => q.name.startsWith("listing") || q.name.startsWith("catalogue"),
    );
    const times = await timeQueries(handle.db, QUERIES, runs);
    const medians = Object.fromEntries(QUERIES.map((q, i) => [q.name, times[i]]));
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const index = await listing.loadCatalogueIndex(handle.db);
    global.gc?.();
    const heldBytes = process.memoryUsage().heapUsed - before;
    return { engine, offerCount, runs, medians, heldBytes, indexed: index.newest.length };
  } finally {
    setCatalogueMemoReader(undefined);
    setCurrentDatabase(undefined);
  }
}

class Rollback extends Error {}

export type IndexReport = {
  engine: string;
  runs: number;
  /** Median milliseconds per query: with every index, then without each set. */
  medians: Record<string, Record<string, number>>;
  plans: Record<string, string>;
};

const planText = (result: unknown) =>
  (result as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join("\n");

/** Median time of each query with all indexes and without each index set (dropped in a rolled-back transaction). */
async function measureIndexes(
  db: Database,
  engine: string,
  slug: string,
  runs = 15,
): Promise<IndexReport> {
  const medians: Record<string, Record<string, number>> = {};
  const plans: Record<string, string> = {};
  const QUERIES = queries(slug);
  for (const query of QUERIES) medians[query.name] = {};
  readVersionPerCall(db, engine);
  // The baseline is measured before and after the others; the lower of the two is kept (the
  // machine is shared: this keeps a busy moment from making an index look useless).
  const baseline = async () => {
    const times = await timeQueries(db, QUERIES, runs);
    for (const [q, { name }] of QUERIES.entries())
      medians[name]["all indexes"] = Math.min(medians[name]["all indexes"] ?? Infinity, times[q]);
  };
  await baseline();
  for (const [name, index] of Object.entries(INDEXES)) {
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`drop index ${index}`));
        const times = await timeQueries(tx, QUERIES, runs);
        for (const [q, query] of QUERIES.entries())
          medians[query.name][`without ${name}`] = times[q];
        throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
  }
  await baseline();
  setCatalogueMemoReader(undefined);
  for (const [name, query] of Object.entries(PLANS))
    plans[name] = planText(await db.execute(sql.raw(`explain analyze ${query}`)));
  return { engine, runs, medians, plans };
}

export type DashboardPlan = {
  query: string;
  plan: string;
  /** The most rows a plan node read from contact_requests (a full scan reads them all). */
  contactRowsRead: number;
  seqScanOfContacts: boolean;
};

type Client = { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * The dashboard's queries as its loader runs them (captured with Drizzle's logger on the same
 * connection), each explained with ANALYZE: whatever the dashboard becomes, the bench sees its SQL.
 */
async function dashboardPlans(handle: DatabaseHandle): Promise<DashboardPlan[]> {
  const captured: { query: string; params: unknown[] }[] = [];
  const logger = {
    logQuery: (query: string, params: unknown[]) => captured.push({ query, params }),
  };
  const client: Client = handle.kind === "postgres" ? handle.pool : handle.client;
  const logging: Database =
    handle.kind === "postgres"
      ? drizzlePg(handle.pool, { schema, logger })
      : drizzlePglite(handle.client, { schema, logger });
  const { user } = await upsertAdmin(BENCH_ADMIN, handle.db);
  const { token } = await createSession(user.id, handle.db);
  const { loader } = await import("../../app/routes/admin/dashboard");
  setCurrentDatabase({ ...handle, db: logging });
  try {
    await loader({
      request: new Request("http://localhost/admin", {
        headers: { Cookie: `admin_session=${token}` },
      }),
      params: {},
      context: { requestId: "bench", cspNonce: "", clientIp: "127.0.0.1" },
    } as never);
  } finally {
    setCurrentDatabase(undefined);
  }
  const plans: DashboardPlan[] = [];
  for (const { query, params } of captured) {
    // The session check is not the dashboard's cost.
    if (/"sessions"|"users"/.test(query) && !/contact_requests|offers/.test(query)) continue;
    const plan = planText(await client.query(`explain (analyze, costs off) ${query}`, params));
    let contactRowsRead = 0;
    for (const line of plan.split("\n").filter((l) => / on contact_requests\b/.test(l))) {
      // Rows are per loop (a parallel scan's workers are loops).
      const rows = /rows=(\d+)/.exec(line);
      const loops = Number(/loops=(\d+)/.exec(line)?.[1] ?? 1);
      if (rows) contactRowsRead = Math.max(contactRowsRead, Number(rows[1]) * loops);
    }
    plans.push({
      query,
      plan,
      contactRowsRead,
      seqScanOfContacts: /Seq Scan on contact_requests\b/.test(plan),
    });
  }
  return plans;
}

/**
 * A migrated, empty database filled: the catalogue, what each index buys (unless `indexes` is
 * false), the contact requests, the ids the pages need, the dashboard's plans.
 */
export async function prepareData(
  handle: DatabaseHandle,
  engine: string,
  options: { indexes: boolean; contacts: number; step: (message: string) => void },
) {
  await handle.withStartupLock((db) => handle.migrate(db));
  const offerCount = await generateCatalogue(handle.db, BENCH_OFFERS);
  // The offer page measured: a generated EPYC offer with a markdown description.
  const [{ slug }] = await handle.db
    .select({ slug: offers.slug })
    .from(offers)
    .where(and(eq(offers.isActive, true), like(offers.slug, "epyc-7543-%")))
    .orderBy(asc(offers.id))
    .limit(1);
  options.step(`${engine}: ${offerCount} offers${options.indexes ? "; measuring indexes" : ""}`);
  setCurrentDatabase(handle); // as in the server: the counts' memo serves the process's database
  const indexes = options.indexes ? await measureIndexes(handle.db, engine, slug) : undefined;
  setCurrentDatabase(undefined);
  options.step(`${engine}: ${options.contacts} contact requests, the dashboard's plans`);
  const start = Date.now();
  const contacts = await generateContactRequests(handle.db, options.contacts);
  const contactsSeconds = Math.round((Date.now() - start) / 1000);
  options.step(`${engine}: requests loaded in ${contactsSeconds} s`);
  const ids = await pageIds(handle.db);
  const dashboard = await dashboardPlans(handle);
  return { engine, offerCount, slug, indexes, contacts, contactsSeconds, ids, dashboard };
}

export type Prepared = Awaited<ReturnType<typeof prepareData>>;
