import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { Pool } from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { setCurrentDatabase, type Database, type DatabaseHandle } from "../../app/server/db.server";
import * as schema from "../../app/server/schema.server";
import { createSession } from "../../app/server/sessions.server";
import { upsertAdmin } from "../../app/server/users.server";
import { rssMb } from "./http";

// The administrator's pages and /contact at scale (issue 11): size, elements and server time, as
// ratios to the uncached public filtered listing measured in the same run.

export const BENCH_ADMIN = {
  email: "bench-admin@example.fr",
  password: "bench admin password 2026",
};

/** The uncached public filtered listing: every page's time is compared to it. */
export const REFERENCE_PATH = "/offers?q=epyc&type=dedicated&min=50&max=500";

export type PageIds = {
  offerId: number;
  contactId: number;
  email: string;
  /** An active offer (with options when one has them) and a request about an offer: quotes. */
  offerSlug: string;
  quoteContactId: number;
};

export type PageSpec = {
  name: string;
  path: (ids: PageIds) => string;
  /** A download: time and server memory, not size. */
  download?: boolean;
};

/**
 * The pages measured, as data: pages not built yet (other branches) answer 404 and are reported
 * 'not available'. Add a page here, nothing else.
 */
export const PAGES: PageSpec[] = [
  { name: "/admin", path: () => "/admin" },
  { name: "/admin/offers", path: () => "/admin/offers" },
  { name: "/admin/offers, page 100", path: () => "/admin/offers?page=100" },
  { name: "/admin/offers?q=epyc", path: () => "/admin/offers?q=epyc" },
  { name: "/admin/offers/new", path: () => "/admin/offers/new" },
  { name: "/admin/offers/{id}", path: (ids) => `/admin/offers/${ids.offerId}` },
  { name: "/admin/contacts", path: () => "/admin/contacts" },
  { name: "/admin/contacts, page 1000", path: () => "/admin/contacts?page=1000" },
  { name: "/admin/contacts?status=in_progress", path: () => "/admin/contacts?status=in_progress" },
  { name: "/admin/contacts?q=dubois", path: () => "/admin/contacts?q=dubois" },
  // Issue 22: the owner filter and a sort that is not the list's index order.
  { name: "/admin/contacts?owner=none", path: () => "/admin/contacts?owner=none" },
  { name: "/admin/contacts?sort=owner", path: () => "/admin/contacts?sort=owner" },
  { name: "/admin/contacts/{id}", path: (ids) => `/admin/contacts/${ids.contactId}` },
  { name: "/admin/contacts/export.csv", path: () => "/admin/contacts/export.csv", download: true },
  { name: "/admin/users", path: () => "/admin/users" },
  { name: "/admin/account", path: () => "/admin/account" },
  { name: "/admin/webhooks", path: () => "/admin/webhooks" },
  {
    name: "/admin/personal-data?email=…",
    path: (ids) => `/admin/personal-data?email=${encodeURIComponent(ids.email)}`,
  },
  { name: "/contact", path: () => "/contact" },
  // Issue 21: the quotes, laid out as PDF at each request (target: under 200 ms each).
  {
    name: "/offers/{slug}/devis.pdf",
    path: (ids) => `/offers/${ids.offerSlug}/devis.pdf?o0=1&o1=1`,
    download: true,
  },
  {
    name: "/admin/contacts/{id}/devis.pdf",
    path: (ids) => `/admin/contacts/${ids.quoteContactId}/devis.pdf`,
    download: true,
  },
];

/** The quote downloads' target (issue 21): the server's time for one PDF. */
export const QUOTE_PDF_LIMIT_MS = 200;

export const PAGE_LIMITS = { bytes: 200 * 1024, elements: 5000, ratio: 10 };

/** Pages larger than this are read once and cut (the unpaged lists were 34 and 173 MB). */
const MAX_READ_BYTES = 8 * 1024 * 1024;
const TIMEOUT_MS = Number(process.env.BENCH_PAGE_TIMEOUT_MS ?? 30_000);

/** CPU time used by a process so far, in clock ticks (Linux). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until the server stops working (under a fifth of a core over half a second): a page that
 * timed out may still be rendering, and would slow down the next page's figures.
 */
async function waitForIdle(pid: number, maxMs = 180_000) {
  const deadline = Date.now() + maxMs;
  let before = cpuTicks(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuTicks(pid);
    if (now - before < 10) return;
    before = now;
  }
}

export type PageMeasure = {
  name: string;
  path: string;
  status: number;
  available: boolean;
  bytes?: number;
  /** The body was longer than MAX_READ_BYTES and cut there. */
  truncated?: boolean;
  elements?: number;
  runs: number;
  medianMs?: number;
  referenceMedianMs?: number;
  ratio?: number;
  /** Downloads: server RSS before and at its highest while answering. */
  rssBeforeMb?: number;
  rssPeakMb?: number;
  note?: string;
};

/** Start tags in an HTML document, leaving out scripts' and styles' contents and comments. */
export function countElements(html: string): number {
  const stripped = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/gi, "$1")
    .replace(/(<style\b[^>]*>)[\s\S]*?<\/style>/gi, "$1")
    .replace(/(<template\b[^>]*>)/gi, "$1");
  return (stripped.match(/<[a-zA-Z][a-zA-Z0-9-]*(?=[\s/>])/g) ?? []).length;
}

type Fetched = { status: number; ms: number; bytes: number; body: string; truncated: boolean };

async function get(url: string, cookie: string): Promise<Fetched> {
  const start = performance.now();
  const response = await fetch(url, {
    headers: { Cookie: cookie, "Accept-Encoding": "identity" },
    redirect: "manual",
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (bytes <= MAX_READ_BYTES) chunks.push(Buffer.from(value));
      else {
        truncated = true;
        await reader.cancel();
        break;
      }
    }
  }
  const ms = performance.now() - start;
  return { status: response.status, ms, bytes, body: Buffer.concat(chunks).toString(), truncated };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** Signs in through /auth as a browser does; returns the session cookie. */
export async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/auth`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...BENCH_ADMIN, redirectTo: "/admin" }),
    redirect: "manual",
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("admin_session="));
  if (!cookie) throw new Error(`sign-in failed (HTTP ${response.status})`);
  return cookie;
}

/**
 * Each page `runs` times, each run right after one request of the reference listing (so that a
 * busy moment of the shared machine weighs on both); medians and their ratio.
 */
export async function measurePages(options: {
  base: string;
  cookie: string;
  pid: number;
  /**
   * A fresh server after a page that timed out or was cut: the old one may keep working on it
   * for minutes (PGlite runs one query at a time) and every later page would wait behind it.
   */
  restart?: () => Promise<{ base: string; cookie: string; pid: number }>;
  ids: PageIds;
  runs: number;
  pages?: PageSpec[];
  log?: (message: string) => void;
}): Promise<PageMeasure[]> {
  let { base, cookie, pid } = options;
  const { runs } = options;
  const results: PageMeasure[] = [];
  const warm = async () => {
    for (let i = 0; i < 3; i++) await get(`${base}${REFERENCE_PATH}`, cookie);
  };
  const recover = async () => {
    if (!options.restart) return waitForIdle(pid);
    ({ base, cookie, pid } = await options.restart());
    await warm();
  };
  await warm();
  for (const page of options.pages ?? PAGES) {
    await waitForIdle(pid);
    const path = page.path(options.ids);
    const url = `${base}${path}`;
    const rssBefore = rssMb(pid);
    let peak = rssBefore;
    const timer = setInterval(() => {
      try {
        peak = Math.max(peak, rssMb(pid));
      } catch {
        // gone
      }
    }, 50);
    let first: Fetched;
    try {
      first = await get(url, cookie);
    } catch (error) {
      clearInterval(timer);
      results.push({
        name: page.name,
        path,
        status: 0,
        available: false,
        runs: 0,
        note: `no answer in ${TIMEOUT_MS / 1000} s (${(error as Error).name})`,
      });
      await recover();
      continue;
    }
    if (first.status !== 200) {
      clearInterval(timer);
      const location = first.status >= 300 && first.status < 400 ? " (redirect)" : "";
      results.push({
        name: page.name,
        path,
        status: first.status,
        available: false,
        runs: 0,
        note: first.status === 404 ? "not available" : `HTTP ${first.status}${location}`,
      });
      if (first.ms > 5_000) await recover();
      continue;
    }
    // A page that is huge or slow is measured once: repeating it would only burn the run.
    const repeat = !first.truncated && first.ms < 5_000 ? runs : 0;
    const times: number[] = repeat ? [] : [first.ms];
    const reference: number[] = [];
    for (let i = 0; i < Math.max(repeat, 1); i++) {
      reference.push((await get(`${base}${REFERENCE_PATH}`, cookie)).ms);
      if (repeat) times.push((await get(url, cookie)).ms);
    }
    clearInterval(timer);
    const medianMs = median(times);
    const referenceMedianMs = median(reference);
    const measure: PageMeasure = {
      name: page.name,
      path,
      status: 200,
      available: true,
      bytes: first.bytes,
      truncated: first.truncated || undefined,
      elements: page.download ? undefined : countElements(first.body),
      runs: times.length,
      medianMs: Number(medianMs.toFixed(1)),
      referenceMedianMs: Number(referenceMedianMs.toFixed(1)),
      ratio: Number((medianMs / referenceMedianMs).toFixed(2)),
    };
    if (page.download) {
      measure.rssBeforeMb = rssBefore;
      measure.rssPeakMb = Math.max(peak, rssMb(pid));
    }
    if (first.truncated)
      measure.note = `larger than ${MAX_READ_BYTES / 1024 / 1024} MB: cut, read once`;
    else if (!repeat) measure.note = "slower than 5 s: read once";
    options.log?.(
      `  ${page.name}: ${(first.bytes / 1024).toFixed(0)} KB, ${measure.medianMs} ms (×${measure.ratio})`,
    );
    results.push(measure);
    if (first.truncated || !repeat) await recover();
  }
  return results;
}

/** The ids the pages need: an offer, a request with notes and history, a person's e-mail. */
export async function pageIds(db: Database): Promise<PageIds> {
  const result = (await db.execute(sql`
      select
        (select id from offers order by id offset 4999 limit 1) as offer_id,
        (select c.id from contact_requests c
          where exists (select 1 from contact_notes n where n.contact_request_id = c.id)
            and exists (select 1 from contact_status_changes s where s.contact_request_id = c.id)
          order by c.id offset 500 limit 1) as contact_id,
        (select email from contact_requests order by id offset 4241 limit 1) as email,
        (select slug from offers where is_active
          order by options is null, id limit 1) as offer_slug,
        (select id from contact_requests where offer_id is not null
          order by id limit 1) as quote_contact_id`)) as unknown as {
    rows: {
      offer_id: number;
      contact_id: number;
      email: string;
      offer_slug: string;
      quote_contact_id: number;
    }[];
  };
  const rows = result.rows;
  const [row] = rows;
  return {
    offerId: row.offer_id,
    contactId: row.contact_id,
    email: row.email,
    offerSlug: row.offer_slug,
    quoteContactId: row.quote_contact_id,
  };
}

export async function createBenchAdmin(db: Database) {
  return (await upsertAdmin(BENCH_ADMIN, db)).user;
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
export async function dashboardPlans(handle: DatabaseHandle): Promise<DashboardPlan[]> {
  const client = (handle.db as unknown as { $client: Client }).$client;
  const captured: { query: string; params: unknown[] }[] = [];
  const logger = {
    logQuery(query: string, params: unknown[]) {
      captured.push({ query, params });
    },
  };
  const logging = (handle.kind === "postgres"
    ? drizzlePg(client as unknown as Pool, { schema, logger })
    : drizzlePglite(client as unknown as PGlite, { schema, logger })) as unknown as Database;
  const user = await createBenchAdmin(handle.db);
  const { token } = await createSession(user.id, handle.db);
  const { loader } = await import("../../app/routes/admin/dashboard");
  setCurrentDatabase({ ...handle, db: logging });
  try {
    captured.length = 0;
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
    const result = await client.query(`explain (analyze, costs off) ${query}`, params);
    const plan = (result.rows as Record<string, string>[])
      .map((r) => Object.values(r)[0])
      .join("\n");
    let contactRowsRead = 0;
    for (const line of plan.split("\n")) {
      if (!/ on contact_requests\b/.test(line)) continue;
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
