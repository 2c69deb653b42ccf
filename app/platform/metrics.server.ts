import type pg from "pg";
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  register,
  type Metric,
} from "prom-client";
import { sql } from "drizzle-orm";
import { currentDatabase, isDatabaseReady } from "./db.server";
import { env } from "./env.server";
import { log } from "./log.server";

/**
 * The process's Prometheus metrics (issue 31; GET /metrics in http-server/metrics.ts, docs/production.md):
 * prom-client's one registry, shared by the Express entry and the React Router build (two module
 * graphs, one prom-client), so each metric is created by whichever graph asks first.
 */
function metric<T extends Metric>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

if (!register.getSingleMetric("process_cpu_user_seconds_total")) collectDefaultMetrics();

const refusals = metric(
  "serveurpro_rate_limit_refusals_total",
  () =>
    new Counter({
      name: "serveurpro_rate_limit_refusals_total",
      help: "Requests refused with 429 by a rate limit, by limit",
      labelNames: ["limit"],
    }),
);

/**
 * Counts one refusal of `limit` (a name fixed in the code, never from the request): call it where
 * a 429 is answered. The names are the `limit` column of docs/reliability.md's "Limits that
 * apply", a table that metrics.server.test.ts keeps equal to the calls.
 */
export function countRefusal(limit: string): void {
  refusals.inc({ limit });
}

export const httpRequestDuration = metric(
  "http_request_duration_seconds",
  () =>
    new Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer an HTTP request, by method, route pattern and status code",
      labelNames: ["method", "route", "status_code"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

/** The page cache's counters (http-server/page-cache.ts), read when Prometheus asks. */
type PageCacheStats = { readonly hits: number; readonly misses: number };
/** A counter summing the stats of the page caches it is given (kept on the metric: see metric()). */
type StatsCounter = Counter & { sources: Set<PageCacheStats> };

function pageCacheCounter(name: string, help: string, read: (s: PageCacheStats) => number) {
  return metric(name, () => {
    const counter = new Counter({
      name,
      help,
      collect() {
        let total = 0;
        for (const stats of counter.sources) total += read(stats);
        this.reset();
        this.inc(total);
      },
    }) as StatsCounter;
    counter.sources = new Set();
    return counter;
  });
}
const pageCacheCounters = [
  pageCacheCounter(
    "serveurpro_page_cache_hits_total",
    "Public pages answered from the page cache",
    (s) => s.hits,
  ),
  pageCacheCounter(
    "serveurpro_page_cache_misses_total",
    "Public pages rendered and kept by the page cache",
    (s) => s.misses,
  ),
];

/** Makes a page cache's hits and misses part of the metrics. */
export function watchPageCache(stats: PageCacheStats): void {
  for (const counter of pageCacheCounters) counter.sources.add(stats);
}

type QueueRow = { queue: string; status: string; count: number; oldest: number | null };

/**
 * The queues' counts, one query for all the gauges of a scrape (each asks; the first answer is
 * shared until the next scrape starts, so a scrape never reads the previous one's counts).
 * Pending and failed rows only: the index on status reads few rows.
 */
let queueSnapshot: { rows: Promise<QueueRow[]> } | undefined;
function queueRows(): Promise<QueueRow[]> {
  if (queueSnapshot) return queueSnapshot.rows;
  const rows = (async () => {
    const result = await currentDatabase().db.execute<QueueRow>(sql`
      select 'mail' as queue, status::text as status, count(*)::int as count,
        extract(epoch from now() - min(created_at))::float8 as oldest
      from mail_outbox where status in ('pending', 'failed') group by status
      union all
      select 'webhook', status::text, count(*)::int,
        extract(epoch from now() - min(created_at))::float8
      from webhook_deliveries where status in ('pending', 'failed') group by status`);
    return result.rows;
  })();
  queueSnapshot = { rows };
  return rows;
}

/** The snapshot for a scrape; nothing without a database (the gauges then have no value). */
async function scrapedQueueRows(): Promise<QueueRow[] | undefined> {
  if (!isDatabaseReady()) return undefined;
  try {
    return await queueRows();
  } catch (error) {
    log.debug("metrics: queue counts unavailable", { error });
    return undefined;
  }
}

const QUEUES = ["mail", "webhook"] as const;

metric(
  "serveurpro_queue_jobs",
  () =>
    new Gauge({
      name: "serveurpro_queue_jobs",
      help: "Mails of the outbox (queue=mail) and webhook deliveries (queue=webhook) waiting or failed",
      labelNames: ["queue", "status"],
      async collect() {
        this.reset();
        const rows = await scrapedQueueRows();
        if (!rows) return;
        for (const queue of QUEUES) {
          for (const status of ["pending", "failed"]) {
            const row = rows.find((r) => r.queue === queue && r.status === status);
            this.set({ queue, status }, row?.count ?? 0);
          }
        }
      },
    }),
);
metric(
  "serveurpro_queue_oldest_pending_seconds",
  () =>
    new Gauge({
      name: "serveurpro_queue_oldest_pending_seconds",
      help: "Age of the oldest waiting job of each queue (0 when none waits)",
      labelNames: ["queue"],
      async collect() {
        this.reset();
        const rows = await scrapedQueueRows();
        if (!rows) return;
        for (const queue of QUEUES) {
          const row = rows.find((r) => r.queue === queue && r.status === "pending");
          this.set({ queue }, row?.oldest ?? 0);
        }
      },
    }),
);

/** The PostgreSQL pool of this instance, when it runs on PostgreSQL. */
function postgresPool(): pg.Pool | undefined {
  try {
    const handle = currentDatabase();
    if (handle.kind !== "postgres") return undefined;
    return handle.pool;
  } catch {
    return undefined;
  }
}

metric(
  "serveurpro_db_pool",
  () =>
    new Gauge({
      name: "serveurpro_db_pool",
      help: "This instance's PostgreSQL pool: connections open (total) and idle, queries waiting for one, the maximum (DATABASE_POOL_MAX)",
      labelNames: ["state"],
      collect() {
        this.reset();
        const pool = postgresPool();
        if (!pool) return;
        this.set({ state: "total" }, pool.totalCount);
        this.set({ state: "idle" }, pool.idleCount);
        this.set({ state: "waiting" }, pool.waitingCount);
        this.set({ state: "max" }, env().DATABASE_POOL_MAX);
      },
    }),
);

/** The text Prometheus reads, and its content type. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  queueSnapshot = undefined;
  return { contentType: register.contentType, body: await register.metrics() };
}
