// The full run (`npm run bench`, docs/benchmark.md): public pages against a static ceiling,
// Lighthouse, memory, what each index buys, and the administration at scale on PGlite and
// PostgreSQL (`--scale-only`: the latter).
import { fork } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { openPglite, openPostgres, type DatabaseHandle } from "../../app/platform/db.server";
import { findFreePort } from "../../tests/system/harness/ports";
import type { ServerProcess } from "../../tests/system/harness/server-process";
import { BENCH_CONTACTS } from "./data";
import { prepareData, type Prepared } from "./measures";
import { CONTACT, text } from "./demo";
import { measurePages, REFERENCE_PATH } from "./pages";
import * as report from "./report";
import type { BenchResults, HttpRow } from "./report";
import { elapsedSeconds, step, write } from "./results";
import * as tools from "./tools";
import { TMP, DURATION, CONNECTIONS, LIGHTHOUSE_RUNS, FORM } from "./settings";

type Env = Record<string, string>;
const CONTACTS = tools.envNumber("BENCH_CONTACTS", BENCH_CONTACTS);

/** The administrator's pages on a server, restarted after a page that did not finish. */
async function measureEngine(prepared: Prepared, env: Env, given?: ServerProcess) {
  const start = () => tools.launch({ SEED_DEMO: "false", ...env });
  let server = given ?? (await start());
  const runs = tools.envNumber("BENCH_PAGE_RUNS", 7);
  try {
    step(`${prepared.engine}: the administrator's pages`);
    const restart = async () => {
      await server.stop();
      return (server = await start());
    };
    const options = { server, restart, ids: prepared.ids, runs, log: console.log };
    const pages = await measurePages(options);
    return { ...prepared, indexes: undefined, pages, runs };
  } finally {
    if (server !== given) await server.stop();
  }
}

/** The bench's data set in a migrated, empty database; the handle closed after. */
const prepare = (handle: DatabaseHandle, engine: string, scaleOnly: boolean) =>
  prepareData(handle, engine, { indexes: !scaleOnly, contacts: CONTACTS, step }).finally(() =>
    handle.close(),
  );

async function onPostgres(scaleOnly: boolean) {
  const pg = await tools.scratchPostgres("bench_perf");
  const skipped = (why: string) => ({ engine: "PostgreSQL", skipped: why });
  if (typeof pg === "string") return { indexes: skipped(pg), scale: skipped(pg) };
  try {
    const handle = await openPostgres(pg.url);
    const prepared = await prepare(handle, pg.engine, scaleOnly);
    const scale = await measureEngine(prepared, { DATABASE_URL: pg.url });
    return { indexes: prepared.indexes ?? { engine: pg.engine, skipped: "--scale-only" }, scale };
  } finally {
    await pg.drop();
  }
}

function searchScript() {
  const dir = path.join(tools.ROOT, "build/client/assets");
  const file = readdirSync(dir).find((f) => /^contact-offer-search-.*\.js$/.test(f));
  if (!file) return undefined;
  const body = readFileSync(path.join(dir, file));
  return { file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
}

export async function bench(scaleOnly: boolean) {
  rmSync(TMP, { recursive: true, force: true });
  mkdirSync(path.join(TMP, "static"), { recursive: true });
  const dataDir = path.join(TMP, "data");
  step("PGlite (bench/tmp/data): the data");
  const pglite = await openPglite(dataDir);
  const prepared = await prepare(pglite, "PGlite 0.5 (embedded)", scaleOnly);
  step("PostgreSQL: the same data, its indexes, the administrator's pages");
  const postgres = await onPostgres(scaleOnly);
  const env = { DATA_DIR: dataDir, DATABASE_URL: "" };
  const server = await tools.launch({ ...env, SEED_DEMO: "false" });
  const settings = {
    offers: prepared.offerCount,
    contacts: CONTACTS,
    duration: DURATION,
    connections: CONNECTIONS,
    lighthouseRuns: LIGHTHOUSE_RUNS,
  };
  const results: BenchResults = { settings, engines: [], searchScript: searchScript() };
  const port = await findFreePort();
  const ceiling = fork(path.join(import.meta.dirname, "static-server.mjs"), [
    path.join(TMP, "static"),
    String(port),
  ]);
  try {
    if (!scaleOnly)
      Object.assign(results, await publicPages(server, prepared.slug, `http://127.0.0.1:${port}`));
    step(`Lighthouse /contact at ${prepared.offerCount} offers`);
    const contact = results.lighthouse?.find((l) => l.page === "/contact")?.result;
    results.contactLighthouse =
      contact ?? (await tools.audit(`${server.base}/contact`, LIGHTHOUSE_RUNS));
    results.engines = [await measureEngine(prepared, env, server), postgres.scale];
    if (!scaleOnly) results.indexes = [prepared.indexes!, postgres.indexes];
  } finally {
    await server.stop();
    ceiling.kill();
  }
  const seconds = elapsedSeconds();
  const run = `${prepared.offerCount} offers (offer page /offers/${prepared.slug}), ${CONTACTS} contact requests; built server on loopback; autocannon ${CONNECTIONS} connections × ${DURATION} s per run; Lighthouse mobile (simulated throttling), median of ${LIGHTHOUSE_RUNS} runs; whole run ${seconds} s.`;
  const json = { ...results, targets: report.targets(results) };
  write(scaleOnly ? "scale" : "latest", "Benchmark", run, report.markdown(results), json);
}

/** The public pages: load against a static ceiling, Lighthouse, the server's memory. */
async function publicPages(server: ServerProcess, slug: string, ceiling: string) {
  const base = server.base;
  const memory = { startupMb: tools.rssMb(server.pid), idleMb: 0, peakUnderLoadMb: 0 };
  const routes = [
    ["/", "/"],
    ["/offers", "/offers"],
    [REFERENCE_PATH, REFERENCE_PATH],
    ["offer page", `/offers/${slug}`],
    ["/contact", "/contact"],
  ];
  for (const [, route] of routes) for (let i = 0; i < 3; i++) await text(`${base}${route}`);
  await tools.sleep(2000);
  memory.idleMb = tools.rssMb(server.pid);
  step(`idle RSS ${memory.idleMb} MB; load: ${DURATION}s per run, ${CONNECTIONS} connections`);
  const message = "Bonjour, ceci est un message du banc d'essai.";
  const post = {
    method: "POST",
    body: new URLSearchParams({ ...CONTACT, message }).toString(),
    headers: { Origin: base, "Content-Type": FORM },
  } as const;
  /** The page's own bytes (`<n>.html`, the ceiling), with its headers (`.h`), as many 'x'. */
  const staticCopy = async (route: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${route}`, {
      ...init,
      headers: { ...init.headers, "Accept-Encoding": "" },
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const skip = ["date", "connection", "keep-alive", "content-length", "transfer-encoding"];
    const headers = Object.fromEntries(
      [...response.headers].filter(([key]) => !skip.includes(key)),
    );
    const file = path.join(TMP, "static", String(bytes.length));
    writeFileSync(`${file}.html`, bytes);
    writeFileSync(`${file}.html.headers.json`, JSON.stringify(headers));
    writeFileSync(`${file}.x.html`, Buffer.alloc(bytes.length, "x"));
    const url = `${ceiling}/${bytes.length}`;
    step(`${route}: ceilings and the page (${Math.round(bytes.length / 1024)} KB)`);
    return {
      bytes: bytes.length,
      file: `${url}.html`,
      withHeaders: `${url}.html.h`,
      ascii: `${url}.x.html`,
    };
  };
  const options = (url: string, extra = {}) => ({
    url,
    duration: DURATION,
    connections: CONNECTIONS,
    ...extra,
  });
  const uncached = { headers: { Cookie: "bench=uncached" } }; // a cookie: the page cache steps aside
  const http: HttpRow[] = [];
  const rss = tools.sampleRss(server.pid);
  for (const [name, route] of routes) {
    const copy = await staticCopy(route);
    const targets = [copy.file, copy.withHeaders, copy.ascii, `${base}${route}`].map((url) =>
      options(url),
    );
    const [top, sameHeaders, ascii, cached] = await tools.interleaved(targets);
    const row = { route: name, bytes: copy.bytes, ceiling: top.result };
    const vs = (other: typeof top) => ({ result: other.result, ratio: cached.ratioTo(other) });
    http.push({
      ...row,
      variant: "cached",
      result: cached.result,
      ratio: cached.ratioTo(top),
      sameHeaders: vs(sameHeaders),
      ascii: vs(ascii),
    });
    const uncachedRow = async (variant: string, extra: object) => {
      const result = await tools.load(options(`${base}${route}`, { ...uncached, ...extra }));
      http.push({ ...row, variant, result, ratio: result.rps / top.result.rps });
    };
    await uncachedRow("uncached", {});
    // Latency without queueing (PGlite runs one query at a time: 10 connections mostly wait).
    if (route === REFERENCE_PATH) await uncachedRow("uncached, 1 connection", { connections: 1 });
  }
  const copy = await staticCopy("/contact", post);
  const [top, posted] = await tools.interleaved([
    options(copy.file),
    options(`${base}/contact`, post),
  ]);
  const result = posted.result;
  http.push({
    route: "contact POST",
    variant: "form post",
    bytes: copy.bytes,
    result,
    ceiling: top.result,
    ratio: posted.ratioTo(top),
  });
  memory.peakUnderLoadMb = rss.stop();
  const lighthouse: BenchResults["lighthouse"] = [];
  for (const [page, route] of routes.filter(([, route]) => route !== REFERENCE_PATH)) {
    step(`Lighthouse ${page} (${LIGHTHOUSE_RUNS} runs, median)`);
    lighthouse.push({
      page,
      path: route,
      result: await tools.audit(`${base}${route}`, LIGHTHOUSE_RUNS),
    });
  }
  // The contact page with the demo catalogue: its offer selector's cost at 10,000, by difference.
  step(`Lighthouse /contact with the demo offers (${LIGHTHOUSE_RUNS} runs, median)`);
  const demo = await tools.launch({ SEED_DEMO: "true" });
  const informational = { page: "/contact, 12 demo offers", path: "/contact", informational: true };
  const audited = tools.audit(`${demo.base}/contact`, LIGHTHOUSE_RUNS).finally(() => demo.stop());
  lighthouse.push({ ...informational, result: await audited });
  return { http, lighthouse, memory };
}
