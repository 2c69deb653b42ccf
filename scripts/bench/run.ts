// The benchmarks, one entry (docs/benchmark.md): `tsx scripts/bench/run.ts [mode]`.
//   (none)            public pages against a static ceiling, Lighthouse, memory, indexes, and the
//                     administration at scale on PGlite and PostgreSQL; --scale-only: the latter
//   memory            the server's memory at idle and after 1,000 requests
//   buyer             quote PDFs and Lighthouse on configured offer pages, demo catalogue
//   admin-lighthouse  Lighthouse desktop on the admin pages, a request with its history included
//   load              mixed load with contact posts, then a check that no lead was lost
//   flood             the cached listing for a quiet client, alone and beside a flood from another address
//   uncached          uncached renders (searches as typed, each once) ÷ the cached listing; inline CSS
//   listing           the listing at 10,000 offers from the catalogue's index, against its SQL, both engines
//   quote             `Envoyer le devis` posted, then its mail with the PDF at a real SMTP server
//   prices            every public surface of every one of 10,000 offers against the one price rule
//   compare [old] [new]  another commit's build (default 5e5dca2) beside this tree's (or new's)
// Every server is the built one, started by the tests' launcher; every load is autocannon.
import { execSync, fork } from "node:child_process";
import { Agent } from "node:http";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { like } from "drizzle-orm";
import { openPglite, openPostgres, type DatabaseHandle } from "../../app/platform/db.server";
import { contactRequests } from "../../app/platform/schema.server";
import { findFreePort } from "../../tests/system/harness/ports";
import type { ServerProcess } from "../../tests/system/harness/server-process";
import { FLOOD_ADDRESS, floodInChild, getFrom } from "../../tests/system/harness/flood";
import { clientAddress, postSiteForm } from "../../tests/system/support";
import { startTestSmtpServer } from "../../tests/support/smtp";
import { BENCH_CONTACTS, measureListing, prepareData, WITHOUT_COUNTS, type Prepared } from "./data";
import { adminLighthouse } from "./admin-lighthouse";
import { compareMode } from "./compare";
import { ADMIN_ENV, CONTACT, demoServer, text } from "./demo";
import { measurePages, PAGES, REFERENCE_PATH } from "./pages";
import { pricesAtScale } from "./prices";
import * as report from "./report";
import type { BenchResults, HttpRow, MemoryFigures, MemoryRow } from "./report";
import { elapsedSeconds, step, write } from "./results";
import * as tools from "./tools";
import { uncached } from "./uncached";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "scale-only": { type: "boolean", default: false },
    db: { type: "string", default: "pglite" },
    duration: { type: "string", default: "60" },
    connections: { type: "string", default: "100" },
  },
});
const [mode = "all", ...paths] = positionals;
const TMP = path.join(tools.ROOT, "bench/tmp");
const DURATION = tools.envNumber("BENCH_DURATION", 6);
const CONNECTIONS = tools.envNumber("BENCH_CONNECTIONS", 10);
const LIGHTHOUSE_RUNS = tools.envNumber("BENCH_LIGHTHOUSE_RUNS", 3);
const CONTACTS = tools.envNumber("BENCH_CONTACTS", BENCH_CONTACTS);

const FORM = "application/x-www-form-urlencoded";
type Env = Record<string, string>;

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

async function bench(scaleOnly: boolean) {
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

async function buyer() {
  const { server, ids } = await demoServer();
  const runs = tools.envNumber("BENCH_PAGE_RUNS", 21);
  try {
    const pages = PAGES.filter((p) => p.name.endsWith(".pdf"));
    const pdfs = await measurePages({ server, ids, runs, pages, log: console.log });
    const rows: unknown[][] = [];
    // Offer pages with options chosen, an LOA with its duration; the home page as a control.
    for (const page of [
      `/offers/${ids.offerSlug}?o0=1&o2=4`,
      "/offers/loa-pme-36-mois?o0=1&duree=48",
      "/",
    ]) {
      step(`Lighthouse ${page}`);
      const lh = await tools.audit(`${server.base}${page}`, LIGHTHOUSE_RUNS);
      const js = `${report.kb(lh.jsGzipBytes)}${lh.jsGzipBytes > 10 * 1024 ? " (over)" : ""} (${lh.scripts.join(", ")})`;
      const times = [`${lh.lcpMs} ms`, `${lh.tbtMs} ms`];
      rows.push([page, report.scores(lh), ...times, lh.cls, js, lh.benchmarkIndex]);
    }
    const markdown = [
      `## Quote PDFs (target ≤ ${report.QUOTE_PDF_LIMIT_MS} ms at the server)`,
      "",
      report.pagesTable(pdfs),
      "",
      `## Configured offer pages, Lighthouse mobile (median of ${LIGHTHOUSE_RUNS}; target 100, JavaScript ≤ 10 KB gzip)`,
      "",
      report.table("Page|Scores|LCP|TBT|CLS|JavaScript gzip|CPU index", rows),
      "",
    ];
    const run = `Demo catalogue, ${runs} requests per PDF, each after one of the reference listing.`;
    write("buyer", "Quotes and configured offers", run, markdown.join("\n"), {
      pdfs,
      lighthouse: rows,
    });
  } finally {
    await server.stop();
  }
}

async function memory() {
  const requests = tools.envNumber("BENCH_MEMORY_REQUESTS", 1000);
  const rows: MemoryRow[] = [];
  const entries = {
    [`\`node ${tools.START_FLAGS.join(" ")} build/server/main.js\` (npm start)`]: tools.START_FLAGS,
    "`node build/server/main.js`, no flag": [],
  };
  for (const [entry, flags] of Object.entries(entries)) {
    for (const database of ["PostgreSQL", "PGlite"]) {
      const pg =
        database === "PostgreSQL" ? await tools.scratchPostgres("bench_memory") : undefined;
      if (typeof pg === "string") continue;
      const env = { DATABASE_URL: pg?.url, LOG_LEVEL: "warn", ...ADMIN_ENV };
      const probeFlags = ["--import", "./scripts/bench/memory-probe.mjs"];
      const server = await tools.launch(env, [...flags, ...probeFlags]);
      try {
        await tools.sleep(3000); // start-up garbage is collected on its own schedule
        const idle = await probe(server);
        const sitemap = await text(`${server.base}/sitemap.xml`);
        const offers = [...sitemap.matchAll(/<loc>[^<]*?(\/offers\/[^<]+)<\/loc>/g)];
        const pages = `/ /offers /offers?type=dedicated /offers?q=xeon /offers?min=50&max=300
          /offers?engagement=no /contact /nowhere`
          .split(/\s+/)
          .concat(offers.map((m) => m[1]));
        let n = 0;
        let unexpected = 0;
        const walk = {
          // One request in ten is a search no one asked before (a page the cache has not seen).
          setupRequest: (request: object, context: { path?: string }) => {
            context.path = n % 10 === 9 ? `/offers?q=${n}` : pages[n % pages.length];
            n++;
            return { ...request, path: context.path };
          },
          onResponse: (status: number, _body: string, context: { path?: string }) => {
            if (status >= 300 && context.path !== "/nowhere") unexpected++;
          },
        };
        const walked = { url: server.base, connections: 10, amount: requests, requests: [walk] };
        const result = await tools.load(walked as never);
        await tools.sleep(3000);
        const after = await probe(server);
        const load = { ...result, non2xx: unexpected };
        rows.push({ entry, database, idle, afterRequests: after, load });
        console.log(
          `${entry}, ${database}: idle RSS ${idle.rssMb} MB, after ${requests} requests ${after.rssMb} MB, ${unexpected} unexpected statuses`,
        );
      } finally {
        await server.stop();
        await pg?.drop();
      }
    }
  }
  write(
    "memory",
    "Server memory",
    "RSS from the process, the V8 heap from a probe preloaded for the bench only.",
    report.memoryMarkdown(rows, requests),
    { requests, rows },
  );
}

/** Asks the preloaded probe (SIGUSR2) for the server's memory and reads its line. */
async function probe(server: ServerProcess): Promise<MemoryFigures> {
  const seen = server.output.split("MEMORY_PROBE ").length;
  server.child.kill("SIGUSR2");
  for (let i = 0; i < 200; i++) {
    const parts = server.output.split("MEMORY_PROBE ");
    if (parts.length > seen) {
      const m = JSON.parse(parts[parts.length - 1].split("\n")[0]) as Record<string, number>;
      const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
      const [rssMb, heapUsedMb, heapTotalMb] = [mb(m.rss), mb(m.heapUsed), mb(m.heapTotal)];
      return { rssMb, heapUsedMb, heapTotalMb, externalMb: mb(m.external) };
    }
    await tools.sleep(25);
  }
  throw new Error("no answer from the memory probe");
}

/**
 * About 90 % page views and 10 % contact posts, each from its own address (TRUST_PROXY, the rate
 * limit raised), then the posts acknowledged (303) are looked up in the database.
 */
async function loadTest() {
  const duration = Number(args.duration);
  const connections = Number(args.connections);
  setTimeout(
    () => (console.error("load: watchdog expired"), process.exit(2)),
    (duration + 180) * 1000,
  ).unref();
  const pg = args.db === "postgres" ? await tools.scratchPostgres("loadtest") : undefined;
  if (typeof pg === "string") throw new Error(`PostgreSQL: ${pg}`);
  const dataDir = pg ? undefined : mkdtempSync(path.join(tmpdir(), "serveurpro-load-"));
  const open = (): Promise<DatabaseHandle> => (pg ? openPostgres(pg.url) : openPglite(dataDir!));
  const limits = { TRUST_PROXY: "loopback", CONTACT_RATE_LIMIT: "1000000", LOG_LEVEL: "warn" };
  const server = await tools.launch({ DATA_DIR: dataDir, DATABASE_URL: pg?.url, ...limits });
  try {
    const base = server.base;
    const links = (await text(`${base}/offers`)).matchAll(/href="\/offers\/([a-z0-9-]+)"/g);
    const slugs = [...new Set([...links].map((m) => m[1]))];
    const options = (await text(`${base}/contact`)).matchAll(/<option value="(\d+)"/g);
    const offerIds = [...options].map((m) => m[1]);
    if (!slugs.length || !offerIds.length) throw new Error("no demo offers found");
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
    const acknowledged = new Set<string>();
    let [sequence, answered] = [0, 0];
    const view = (pathOf: () => string) => ({
      headers: { "accept-encoding": "gzip" },
      setupRequest: (request: object) => ({ ...request, path: pathOf() }),
    });
    // Per connection, in a loop: nine page views, then one contact post.
    const requests = [
      view(() => "/"),
      view(() => "/offers"),
      view(() => pick(["/offers?type=loa", "/offers?type=dedicated&engagement=yes"])),
      view(() => pick(["/offers?q=epyc", "/offers?q=ddr5", "/offers?q=xeon&type=dedicated"])),
      view(() => pick(["/offers?min=100&max=500", "/offers?max=100", "/offers?min=500"])),
      view(() => `/offers/${pick(slugs)}`),
      view(() => `/offers/${pick(slugs)}`),
      view(() => "/contact"),
      view(() => `/contact?offer=${pick(offerIds)}`),
      {
        method: "POST",
        path: "/contact",
        setupRequest: (request: object, context: { name?: string }) => {
          const n = ++sequence;
          context.name = `Charge ${n}`;
          const body = new URLSearchParams({ name: context.name, email: `charge${n}@example.fr` });
          body.set("phone", "");
          body.set("offer", n % 2 ? pick(offerIds) : "");
          body.set("message", `Demande de devis numéro ${n}.\nMerci.`);
          const headers = { "content-type": FORM, "x-forwarded-for": clientAddress(n) };
          return { ...request, body: body.toString(), headers };
        },
        onResponse: (status: number, _body: string, context: { name?: string }) => {
          answered++;
          if (status === 303) acknowledged.add(context.name!); // stored: post/redirect/get
        },
      },
    ];
    console.log(`load: ${args.db}, ${connections} connections for ${duration} s on ${base} ...`);
    const result = await tools.load({
      url: base,
      connections,
      duration,
      timeout: 30,
      requests,
    } as never);
    await server.stop();
    const handle = await open();
    const rows = await handle.db
      .select({ name: contactRequests.name })
      .from(contactRequests)
      .where(like(contactRequests.name, "Charge %"))
      .finally(() => handle.close());
    const stored = new Set(rows.map((r) => r.name));
    const missing = [...acknowledged].filter((name) => !stored.has(name)).length;
    const errorLines = server.output.split("\n").filter((l) => l.includes('"level":"error"'));
    const label = `${pg ? "PostgreSQL" : "embedded PGlite"}, ${connections} connections`;
    const contacts = { answered, acknowledged: acknowledged.size, stored: stored.size, missing };
    console.log(report.loadSummary(label, result, contacts, errorLines.length));
    const ok =
      result.statuses["5xx"] === 0 && result.errors === 0 && missing === 0 && acknowledged.size > 0;
    console.log(ok ? "  verdict:         OK, nothing lost" : "  verdict:         FAILED");
    process.exitCode = ok ? 0 : 1;
  } finally {
    await server.stop();
    await pg?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Issue 28: the cached listing's latency for a quiet client (127.0.0.1, one request at a time),
 * alone, then while 20 connections from FLOOD_ADDRESS (a process of its own) ask quote PDFs or
 * searches, a new question each time; default limits. Target: p95 within 5× the quiet one.
 */
async function flood() {
  const ms = tools.envNumber("BENCH_FLOOD_SECONDS", 10) * 1000;
  const limits = { PUBLIC_RENDER_RATE_PER_MINUTE: undefined, QUOTE_PDF_RATE_PER_MINUTE: undefined };
  const server = await tools.launch({ SEED_DEMO: "true", ...limits });
  const [agent, rows] = [new Agent({ keepAlive: true }), [] as unknown[][]];
  let quietP95 = 0;
  const quiet = async (name: string, flooding?: Promise<{ statuses?: object }>) => {
    const times: number[] = [];
    for (const end = Date.now() + ms; Date.now() < end;) {
      const start = performance.now();
      const { status } = await getFrom(server.base, "/offers", { agent });
      if (status !== 200) throw new Error(`the cached listing answered ${status}`);
      times.push(performance.now() - start);
    }
    const [p50, p95] = tools.quantiles(times, [0.5, 0.95]);
    quietP95 ||= p95;
    const ratio = `${(p95 / quietP95).toFixed(1)}×`;
    const statuses = JSON.stringify((await flooding)?.statuses ?? "—");
    rows.push([name, times.length, p50.toFixed(1), p95.toFixed(1), ratio, statuses]);
  };
  try {
    for (let i = 0; i < 5; i++) await getFrom(server.base, "/offers", { agent }); // stored
    await quiet("none: the quiet client alone");
    const pdf = "/offers/epyc-performance-64/devis.pdf?o0={n}";
    const floods = { "quote PDFs": pdf, searches: "/offers?q=flood{n}" };
    for (const [name, template] of Object.entries(floods)) {
      step(`${ms / 1000} s of a flood of ${name} from ${FLOOD_ADDRESS}`);
      const options = { base: server.base, template, connections: 20, localAddress: FLOOD_ADDRESS };
      await quiet(name, floodInChild({ ...options, maxRequests: 1e9, maxMs: ms }));
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
  const heads = "Flood|Requests|p50 ms|p95 ms|p95 / quiet p95 (≤ 5×)|Flood's answers by status";
  const run = `Demo catalogue, default limits; ${ms / 1000} s per phase, the flood started with it.`;
  write("flood", "A flood from one address", run, `${report.table(heads, rows)}\n`, { rows });
}

/**
 * Issue 29: `Envoyer le devis` posted by the salesperson on the demo request, one send at a time
 * (each replaces the previous quote), timed from the post to its answer (the quote stored, its
 * mail queued) and to the mail, its PDF attached, received by a real SMTP server on loopback.
 */
async function quote() {
  const smtp = await startTestSmtpServer();
  const mailEnv = { SMTP_URL: smtp.url, NOTIFY_EMAIL: "ventes@example.fr" };
  const { server, cookie, ids } = await demoServer(mailEnv);
  const runs = tools.envNumber("BENCH_QUOTE_RUNS", 30);
  const path = `/admin/contacts/${ids.quoteContactId}/envoyer-devis`;
  const mails = () => smtp.mails.filter((m) => /^Votre devis DEV-/.test(m.parsed.subject ?? ""));
  const [answered, delivered]: number[][] = [[], []];
  let pdfBytes = 0;
  try {
    for (let i = 0; i <= runs; i++) {
      const [seen, start] = [mails().length, Date.now()];
      const post = await postSiteForm(server.base, path, { validity: "30" }, cookie);
      const answeredMs = Date.now() - start;
      if (post.status !== 302) throw new Error(`Envoyer le devis answered ${post.status}`);
      while (mails().length <= seen && Date.now() - start < 30_000) await tools.sleep(5);
      const mail = mails()[seen];
      const pdf = mail?.parsed.attachments.find((a) => a.mimeType === "application/pdf");
      if (!pdf) throw new Error("no quote mail with its PDF within 30 s");
      pdfBytes = typeof pdf.content === "string" ? pdf.content.length : pdf.content.byteLength;
      if (i === 0) continue; // the first send warms the server up
      answered.push(answeredMs);
      delivered.push(mail.receivedAt - start);
    }
  } finally {
    await Promise.all([server.stop(), smtp.stop()]);
  }
  const row = (name: string, ms: number[]) => [name, ...tools.quantiles(ms, [0.5, 0.95, 1])];
  const rows = [row("its answer", answered), row("the mail at the SMTP server", delivered)];
  const markdown = `${report.table("From the post to|Median ms|p95 ms|Max ms", rows)}\n`;
  const run = `Demo catalogue, its request (an offer with options, a company): ${runs} sends one at a time (each replaces the previous quote) after one to warm up. The answer (302) comes once the quote is stored and its mail queued; the mail, its PDF (${report.kb(pdfBytes)}) attached, is counted when smtp-server on loopback has it.`;
  write("quote", "Sending a quote", run, markdown, { runs, rows, answered, delivered });
}

/** Issue 31: the listing from the catalogue's index at 10,000 offers, on both engines. */
async function listingAtScale() {
  rmSync(TMP, { recursive: true, force: true });
  const results: Awaited<ReturnType<typeof measureListing>>[] = [];
  step("PGlite: 10,000 offers, the listing's variants");
  const pglite = await openPglite(path.join(TMP, "listing"));
  try {
    results.push(await measureListing(pglite, "PGlite"));
  } finally {
    await pglite.close();
  }
  const pg = await tools.scratchPostgres("bench_listing");
  if (typeof pg !== "string") {
    step("PostgreSQL: the same");
    const handle = await openPostgres(pg.url);
    try {
      results.push(await measureListing(handle, pg.engine));
    } finally {
      await handle.close();
      await pg.drop();
    }
  }
  const names = Object.keys(results[0].medians).filter((q) => !q.endsWith(WITHOUT_COUNTS));
  const rows = names.map((q) => [
    q,
    ...results.flatMap((r) => [
      r.medians[q].toFixed(2),
      r.medians[q + WITHOUT_COUNTS]?.toFixed(2) ?? "",
    ]),
  ]);
  const heads = `Median ms|${results.map((r) => `${r.engine}: index|${r.engine}: SQL`).join("|")}`;
  const held = results
    .map((r) => `${r.engine}: ${r.indexed} offers held in ${report.kb(r.heldBytes)} of heap`)
    .join("; ");
  const markdown = `${report.table(heads, rows)}\n\n${held}.\n`;
  const run = `${results[0].offerCount} offers (the demo's and generated ones); each listing as the site answers it (index: the catalogue's index held, the counts beside the filters) and the same page and total from SQL alone (what the API runs); ${results[0].runs} runs in turns, medians.`;
  write("listing", "The listing at scale", run, markdown, { results });
}

/** Issue 39: one price per offer on every surface, at 10,000 offers. */
async function prices() {
  const { markdown, json } = await pricesAtScale(TMP, step);
  const run =
    "The bench's catalogue; each surface read over HTTP and parsed, compared with the rule.";
  write("prices", "One price per offer at scale", run, markdown, json);
  if (json.mismatches.length) process.exitCode = 1;
}

const all = () => bench(args["scale-only"]);
const modes = {
  all,
  memory,
  buyer,
  "admin-lighthouse": () => adminLighthouse(paths),
  load: loadTest,
  flood,
  uncached: () =>
    uncached({ duration: DURATION, connections: CONNECTIONS, lighthouseRuns: LIGHTHOUSE_RUNS }),
  listing: listingAtScale,
  quote,
  prices,
  compare: () => compareMode(paths, DURATION, CONNECTIONS),
};
if (!(mode in modes)) throw new Error(`unknown mode ${mode}: ${Object.keys(modes).join(", ")}`);
mkdirSync(tools.RESULTS, { recursive: true });
const builtElsewhere = mode === "compare" && paths.length > 1; // both sides in worktrees
const needsBuild = !["load", "listing"].includes(mode) && !builtElsewhere;
if (needsBuild && process.env.BENCH_BUILD !== "0") {
  step("building (npm run build)");
  execSync("npm run build", { cwd: tools.ROOT, stdio: "pipe" });
}
await modes[mode as keyof typeof modes]();
