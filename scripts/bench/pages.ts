import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { signInOverHttp } from "../../tests/system/support";
import { BENCH_ADMIN, type PageIds } from "./data";
import { envNumber, median, rssMb, sampleRss } from "./tools";

// The administrator's pages, /contact and the quotes at scale (issues 11, 21, 22): size, elements
// and server time, as ratios to the uncached public filtered listing measured in the same run.

/** The uncached public filtered listing: every page's time is compared to it. */
export const REFERENCE_PATH = "/offers?q=epyc&type=dedicated&min=50&max=500";

export type PageSpec = {
  name: string;
  path: (ids: PageIds) => string;
  /** A download: time and server memory, not elements. */
  download?: boolean;
};

const page = (name: string, download?: boolean): PageSpec => ({ name, path: () => name, download });

/**
 * The pages measured, as data: pages not built yet answer 404 and are reported 'not available'.
 * Add a page here, nothing else.
 */
export const PAGES: PageSpec[] = [
  page("/admin"),
  page("/admin/offers"),
  { name: "/admin/offers, page 100", path: () => "/admin/offers?page=100" },
  page("/admin/offers?q=epyc"),
  page("/admin/offers?q=xeon&type=loa&status=active"),
  page("/admin/offers?q=00042"),
  page("/admin/offers/new"),
  { name: "/admin/offers/new?from={id}", path: (ids) => `/admin/offers/new?from=${ids.offerId}` },
  { name: "/admin/offers/{id}", path: (ids) => `/admin/offers/${ids.offerId}` },
  page("/admin/contacts"),
  { name: "/admin/contacts, page 1000", path: () => "/admin/contacts?page=1000" },
  page("/admin/contacts?status=in_progress"),
  page("/admin/contacts?q=dubois"),
  page("/admin/contacts?owner=none"),
  page("/admin/contacts?sort=owner"),
  { name: "/admin/contacts/{id}", path: (ids) => `/admin/contacts/${ids.contactId}` },
  page("/admin/contacts/export.csv", true),
  page("/admin/users"),
  page("/admin/account"),
  page("/admin/webhooks"),
  {
    name: "/admin/personal-data?email=…",
    path: (ids) => `/admin/personal-data?email=${encodeURIComponent(ids.email)}`,
  },
  page("/contact"),
  // The quotes, laid out as PDF at each request.
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

/** Pages larger than this are read once and cut (the unpaged lists were 34 and 173 MB). */
const MAX_READ_BYTES = 8 * 1024 * 1024;
const TIMEOUT_MS = envNumber("BENCH_PAGE_TIMEOUT_MS", 30_000);

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
    .replace(/(<style\b[^>]*>)[\s\S]*?<\/style>/gi, "$1");
  return (stripped.match(/<[a-zA-Z][a-zA-Z0-9-]*(?=[\s/>])/g) ?? []).length;
}

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
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    bytes += read.value.length;
    if (bytes > MAX_READ_BYTES) {
      truncated = true;
      await reader?.cancel();
      break;
    }
    chunks.push(Buffer.from(read.value));
  }
  const ms = performance.now() - start;
  return { status: response.status, ms, bytes, body: Buffer.concat(chunks).toString(), truncated };
}

export const signIn = (base: string) => signInOverHttp(base, BENCH_ADMIN);

export type Target = { base: string; pid: number };

/**
 * Each page `runs` times, each run right after one request of the reference listing (so that a
 * busy moment of the shared machine weighs on both); medians and their ratio. After a page that
 * timed out or was cut, `restart` gives a fresh server: the old one may keep working on it for
 * minutes (PGlite runs one query at a time) and every later page would wait behind it.
 */
export async function measurePages(options: {
  server: Target;
  restart?: () => Promise<Target>;
  ids: PageIds;
  runs: number;
  pages?: PageSpec[];
  log: (message: string) => void;
}): Promise<PageMeasure[]> {
  let { base, pid } = options.server;
  let cookie = await signIn(base);
  const results: PageMeasure[] = [];
  const warm = async () => {
    for (let i = 0; i < 3; i++) await get(`${base}${REFERENCE_PATH}`, cookie);
  };
  const recover = async () => {
    if (!options.restart) return waitForIdle(pid);
    options.log("  (a page did not finish: the server is restarted)");
    ({ base, pid } = await options.restart());
    cookie = await signIn(base);
    await warm();
  };
  await warm();
  for (const spec of options.pages ?? PAGES) {
    await waitForIdle(pid);
    const path = spec.path(options.ids);
    const rssBeforeMb = rssMb(pid);
    const unavailable = (status: number, note: string) =>
      results.push({ name: spec.name, path, status, available: false, runs: 0, note });
    const rss = sampleRss(pid, 50);
    const first = await get(`${base}${path}`, cookie).catch((error: Error) => error);
    if (first instanceof Error || first.status !== 200) rss.stop();
    if (first instanceof Error) {
      unavailable(0, `no answer in ${TIMEOUT_MS / 1000} s (${first.name})`);
      await recover();
      continue;
    }
    if (first.status !== 200) {
      const redirect = first.status >= 300 && first.status < 400 ? " (redirect)" : "";
      unavailable(
        first.status,
        first.status === 404 ? "not available" : `HTTP ${first.status}${redirect}`,
      );
      if (first.ms > 5_000) await recover();
      continue;
    }
    // A page that is huge or slow is measured once: repeating it would only burn the run.
    const repeat = !first.truncated && first.ms < 5_000 ? options.runs : 0;
    const times: number[] = repeat ? [] : [first.ms];
    const reference: number[] = [];
    for (let i = 0; i < Math.max(repeat, 1); i++) {
      reference.push((await get(`${base}${REFERENCE_PATH}`, cookie)).ms);
      if (repeat) times.push((await get(`${base}${path}`, cookie)).ms);
    }
    const rssPeakMb = rss.stop();
    const medianMs = median(times);
    const referenceMedianMs = median(reference);
    const measure: PageMeasure = {
      name: spec.name,
      path,
      status: 200,
      available: true,
      bytes: first.bytes,
      truncated: first.truncated || undefined,
      elements: spec.download ? undefined : countElements(first.body),
      runs: times.length,
      medianMs: Number(medianMs.toFixed(1)),
      referenceMedianMs: Number(referenceMedianMs.toFixed(1)),
      ratio: Number((medianMs / referenceMedianMs).toFixed(2)),
      ...(spec.download ? { rssBeforeMb, rssPeakMb } : {}),
    };
    if (first.truncated)
      measure.note = `larger than ${MAX_READ_BYTES / 1024 / 1024} MB: cut, read once`;
    else if (!repeat) measure.note = "slower than 5 s: read once";
    const kb = (first.bytes / 1024).toFixed(0);
    options.log(`  ${spec.name}: ${kb} KB, ${measure.medianMs} ms (×${measure.ratio})`);
    results.push(measure);
    if (!repeat) await recover();
  }
  return results;
}
