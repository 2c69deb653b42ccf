// npm run bench: the built server with 10,000 offers, on loopback, in one run (README, Performance).
// HTTP throughput and latency against a static-file ceiling, Lighthouse (mobile), memory, and what
// each database index buys. Writes bench/results/latest.json and latest.md.
import { execFileSync, execSync, fork } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, like } from "drizzle-orm";
import pg from "pg";
import { openPglite, openPostgres, type DatabaseHandle } from "../../app/server/db.server";
import { offers } from "../../app/server/schema.server";
import { BENCH_CONTACTS } from "./contacts";
import { BENCH_OFFERS, generateCatalogue, measureIndexes, type IndexReport } from "./data";
import { interleaved, load, peakRss, rssMb, type LoadOptions } from "./http";
import { audit, type LighthouseResult } from "./lighthouse";
import { evaluateTargets, markdownReport, type BenchResults } from "./report";
import {
  measureScale,
  prepareScale,
  scaleMarkdown,
  scaleTargets,
  searchScriptSize,
  type ScaleEngineResult,
  type ScaleResults,
} from "./scale";
import { startAppServer, stop, waitFor } from "./server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TMP = path.join(ROOT, "bench/tmp");
const RESULTS = path.join(ROOT, "bench/results");
const PORT = Number(process.env.BENCH_PORT ?? 4411);
const CEILING_PORT = PORT + 1;
const DEMO_PORT = PORT + 3;
const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";

const started = Date.now();
function step(message: string) {
  const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  console.log(`[${seconds}s] ${message}`);
}

/** `npm run bench -- --scale-only`: only the administration at scale and /contact (issue 11). */
const SCALE_ONLY = process.argv.includes("--scale-only");
const PAGE_RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 7);
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? BENCH_CONTACTS);
const PG_SERVER_PORT = PORT + 4;

async function prepareDatabase(handle: DatabaseHandle, engine: string) {
  await handle.withStartupLock((db) => handle.migrate(db));
  const count = await generateCatalogue(handle.db, BENCH_OFFERS);
  // The offer page measured: a generated EPYC offer with a markdown description.
  const [row] = await handle.db
    .select({ slug: offers.slug })
    .from(offers)
    .where(and(eq(offers.isActive, true), like(offers.slug, "epyc-7543-%")))
    .orderBy(asc(offers.id))
    .limit(1);
  let indexes: IndexReport | undefined;
  if (!SCALE_ONLY) {
    step(`${engine}: ${count} offers; measuring indexes`);
    indexes = await measureIndexes(handle.db, engine, row.slug);
  }
  step(`${engine}: ${CONTACTS} contact requests, the dashboard's plans`);
  const scale = await prepareScale(handle, engine, CONTACTS);
  step(`${engine}: requests loaded in ${scale.contactsSeconds} s`);
  return { count, slug: row.slug, indexes, scale };
}

type Skipped = { engine: string; skipped: string };

/** The same data on PostgreSQL: index measurements, then a built server on it for the pages. */
async function postgresPart(): Promise<{
  indexes: IndexReport | Skipped;
  scale: ScaleEngineResult | Skipped;
}> {
  const skipped = (reason: string) => ({
    indexes: { engine: "PostgreSQL", skipped: reason },
    scale: { engine: "PostgreSQL", skipped: reason },
  });
  if (process.env.BENCH_POSTGRES === "0") return skipped("BENCH_POSTGRES=0");
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return skipped("not reachable (BENCH_DATABASE_URL)");
  }
  const name = `bench_perf_${process.pid}`;
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  try {
    const version = (await admin.query("show server_version")).rows[0].server_version as string;
    const engine = `PostgreSQL ${version}`;
    const handle = await openPostgres(url.toString());
    let prepared;
    try {
      prepared = await prepareDatabase(handle, engine);
    } finally {
      await handle.close();
    }
    step(`${engine}: built server on :${PG_SERVER_PORT}, the administrator's pages`);
    const start = () =>
      startAppServer({
        port: PG_SERVER_PORT,
        env: { DATABASE_URL: url.toString(), SEED_DEMO: "false", SHUTDOWN_TIMEOUT_MS: "1000" },
      });
    let { child } = start();
    const base = `http://127.0.0.1:${PG_SERVER_PORT}`;
    const restart = async () => {
      await stop(child);
      child = start().child;
      await waitFor(`${base}/healthz`, child, "PostgreSQL server");
      return { base, pid: child.pid! };
    };
    try {
      await waitFor(`${base}/healthz`, child, "PostgreSQL server");
      const scale = await measureScale(
        prepared.scale,
        { base, pid: child.pid!, restart },
        PAGE_RUNS,
        step,
      );
      return { indexes: prepared.indexes ?? { engine, skipped: "--scale-only" }, scale };
    } finally {
      await stop(child);
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function main() {
  rmSync(TMP, { recursive: true, force: true });
  mkdirSync(path.join(TMP, "static"), { recursive: true });
  mkdirSync(RESULTS, { recursive: true });

  step("building (npm run build)");
  execSync("npm run build", { cwd: ROOT, stdio: "pipe" });

  step(`generating ${BENCH_OFFERS} offers in PGlite (bench/tmp/data)`);
  const dataDir = path.join(TMP, "data");
  const pglite = await openPglite(dataDir);
  let prepared;
  try {
    prepared = await prepareDatabase(pglite, "PGlite 0.5 (embedded)");
  } finally {
    await pglite.close();
  }
  step("PostgreSQL: same data, index measurements, the administrator's pages");
  const pgPart = await postgresPart();

  step(`starting the built server on :${PORT}`);
  const startPglite = () =>
    startAppServer({
      port: PORT,
      env: { DATA_DIR: dataDir, DATABASE_URL: "", SEED_DEMO: "false", SHUTDOWN_TIMEOUT_MS: "1000" },
    });
  const firstServer = startPglite();
  let server = firstServer.child;
  const base = firstServer.base;
  const restartPglite = async () => {
    await stop(server);
    server = startPglite().child;
    await waitFor(`${base}/healthz`, server, "server");
    return { base, pid: server.pid! };
  };
  const ceiling = fork(path.join(import.meta.dirname, "static-server.mjs"), [
    path.join(TMP, "static"),
    String(CEILING_PORT),
  ]);
  try {
    await waitFor(`${base}/healthz`, server, "server");
    const pid = server.pid!;
    if (SCALE_ONLY) {
      step(`Lighthouse /contact at ${prepared.count} offers (${LIGHTHOUSE_RUNS} runs, median)`);
      const contactLighthouse = await audit(`${base}/contact`, LIGHTHOUSE_RUNS);
      step("PGlite: the administrator's pages");
      const pgliteScale = await measureScale(
        prepared.scale,
        { base, pid, restart: restartPglite },
        PAGE_RUNS,
        step,
      );
      writeScale(buildScale(prepared.count, [pgliteScale, pgPart.scale], contactLighthouse));
      return;
    }
    const memory = { startupMb: rssMb(pid), idleMb: 0, peakUnderLoadMb: 0 };

    const offerPath = `/offers/${prepared.slug}`;
    const routes = [
      { name: "/", path: "/" },
      { name: "/offers", path: "/offers" },
      {
        name: "/offers?q=epyc&type=dedicated&min=50&max=500",
        path: "/offers?q=epyc&type=dedicated&min=50&max=500",
      },
      { name: "offer page", path: offerPath },
      { name: "/contact", path: "/contact" },
    ];
    for (const route of routes) {
      for (let i = 0; i < 3; i++) await (await fetch(`${base}${route.path}`)).arrayBuffer();
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    memory.idleMb = rssMb(pid);
    step(`idle RSS ${memory.idleMb} MB; load: ${DURATION}s per run, ${CONNECTIONS} connections`);

    const contactBody = new URLSearchParams({
      name: "Banc d'essai",
      email: "bench@example.fr",
      phone: "",
      offer: "",
      message: "Bonjour, ceci est un message du banc d'essai.",
    }).toString();

    const http: BenchResults["http"] = [];
    /**
     * The static files for a route: the page's own bytes (`<n>.html`, the ceiling), the same with
     * the page's headers (`<n>.html.h`), and as many ASCII 'x' (`<n>.x.html`).
     */
    const staticCopy = async (page: { path: string; method?: string; body?: string }) => {
      const response = await fetch(`${base}${page.path}`, {
        method: page.method ?? "GET",
        body: page.body,
        headers: {
          "Accept-Encoding": "",
          ...(page.body
            ? { Origin: base, "Content-Type": "application/x-www-form-urlencoded" }
            : {}),
        },
      });
      const body = Buffer.from(await response.arrayBuffer());
      const name = `${body.length}.html`;
      const headers: Record<string, string> = {};
      const skip = ["date", "connection", "keep-alive", "content-length", "transfer-encoding"];
      response.headers.forEach((value, key) => {
        if (!skip.includes(key)) headers[key] = value;
      });
      writeFileSync(path.join(TMP, "static", name), body);
      writeFileSync(path.join(TMP, "static", `${name}.headers.json`), JSON.stringify(headers));
      writeFileSync(
        path.join(TMP, "static", `${body.length}.x.html`),
        Buffer.alloc(body.length, "x"),
      );
      const url = `http://127.0.0.1:${CEILING_PORT}`;
      return {
        bytes: body.length,
        file: `${url}/${name}`,
        withHeaders: `${url}/${name}.h`,
        ascii: `${url}/${body.length}.x.html`,
      };
    };
    const options = (url: string, extra: Partial<LoadOptions> = {}): LoadOptions => ({
      url,
      durationSeconds: DURATION,
      connections: CONNECTIONS,
      ...extra,
    });

    const [, peak] = await peakRss(pid, async () => {
      for (const route of routes) {
        const copy = await staticCopy({ path: route.path });
        const bytes = copy.bytes;
        step(
          `${route.name}: ceilings and cached (interleaved), uncached (${Math.round(bytes / 1024)} KB)`,
        );
        const [top, sameHeaders, ascii, cached] = await interleaved([
          options(copy.file),
          options(copy.withHeaders),
          options(copy.ascii),
          options(`${base}${route.path}`),
        ]);
        // A cookie makes the page cache step aside: every request is rendered.
        const uncached = await load(
          options(`${base}${route.path}`, { headers: { Cookie: "bench=uncached" } }),
        );
        http.push({
          route: route.name,
          variant: "cached",
          bytes,
          result: cached.result,
          ceiling: top.result,
          sameHeadersCeiling: sameHeaders.result,
          asciiCeiling: ascii.result,
          ratio: cached.ratioTo(top),
          sameHeadersRatio: cached.ratioTo(sameHeaders),
          asciiRatio: cached.ratioTo(ascii),
        });
        http.push({
          route: route.name,
          variant: "uncached",
          bytes,
          result: uncached,
          ceiling: top.result,
          ratio: uncached.rps / top.result.rps,
        });
        if (route.path.startsWith("/offers?")) {
          // Latency without queueing: one visitor at a time (the embedded database runs one
          // query at a time, so under 10 connections latency is mostly waiting in line).
          const alone = await load(
            options(`${base}${route.path}`, {
              headers: { Cookie: "bench=uncached" },
              connections: 1,
            }),
          );
          http.push({
            route: route.name,
            variant: "uncached, 1 connection",
            bytes,
            result: alone,
            ceiling: top.result,
            ratio: alone.rps / top.result.rps,
          });
        }
      }
      const postCopy = await staticCopy({ path: "/contact", method: "POST", body: contactBody });
      const postBytes = postCopy.bytes;
      step(`contact POST: ceiling and posts (${Math.round(postBytes / 1024)} KB answer)`);
      const file = postCopy.file;
      const [top, posted] = await interleaved([
        options(file),
        options(`${base}/contact`, {
          method: "POST",
          headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
          body: contactBody,
        }),
      ]);
      http.push({
        route: "contact POST",
        variant: "form post",
        bytes: postBytes,
        result: posted.result,
        ceiling: top.result,
        ratio: posted.ratioTo(top),
      });
    });
    memory.peakUnderLoadMb = peak;

    const lighthouse: BenchResults["lighthouse"] = [];
    for (const page of [
      { name: "/", path: "/" },
      { name: "/offers", path: "/offers" },
      { name: "offer page", path: offerPath },
      { name: "/contact", path: "/contact" },
    ]) {
      step(`Lighthouse ${page.name} (${LIGHTHOUSE_RUNS} runs, median)`);
      const result: LighthouseResult = await audit(`${base}${page.path}`, LIGHTHOUSE_RUNS);
      lighthouse.push({ page: page.name, path: page.path, result });
    }

    // The same contact page with the demo catalogue: what its selector of every active offer
    // (spec section 2) costs at 10,000 offers, by difference. Not one of the targets' pages.
    step(`Lighthouse /contact with the 12 demo offers (${LIGHTHOUSE_RUNS} runs, median)`);
    const { child: demo, base: demoBase } = startAppServer({
      port: DEMO_PORT,
      env: { DATA_DIR: path.join(TMP, "demo"), DATABASE_URL: "", SEED_DEMO: "true" },
    });
    try {
      await waitFor(`${demoBase}/healthz`, demo, "demo server");
      const result = await audit(`${demoBase}/contact`, LIGHTHOUSE_RUNS);
      lighthouse.push({
        page: "/contact, 12 demo offers",
        path: "/contact",
        result,
        informational: true,
      });
    } finally {
      await stop(demo);
    }

    step("PGlite: the administrator's pages");
    const pgliteScale = await measureScale(
      prepared.scale,
      { base, pid, restart: restartPglite },
      PAGE_RUNS,
      step,
    );
    const scale = buildScale(
      prepared.count,
      [pgliteScale, pgPart.scale],
      lighthouse.find((l) => l.page === "/contact")?.result,
    );
    writeScale(scale);

    const results: BenchResults = {
      date: new Date().toISOString(),
      commit: gitCommit(),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? "unknown",
        memoryGb: Math.round(os.totalmem() / 1024 ** 3),
        loadAverage: os.loadavg().map((n) => Number(n.toFixed(2))),
        node: process.version,
        chromium: chromiumVersion(),
      },
      settings: {
        offers: prepared.count,
        durationSeconds: DURATION,
        connections: CONNECTIONS,
        lighthouseRuns: LIGHTHOUSE_RUNS,
        database: "PGlite (embedded), DATA_DIR=bench/tmp/data",
        offerPage: offerPath,
      },
      http,
      lighthouse,
      memory,
      indexes: [prepared.indexes!, pgPart.indexes],
      scale,
      targets: [],
      seconds: Math.round((Date.now() - started) / 1000),
    };
    results.targets = evaluateTargets(results);
    writeFileSync(path.join(RESULTS, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
    const markdown = `${markdownReport(results)}\n## The administration at scale (issue 11)\n\n${scaleMarkdown(scale)}`;
    writeFileSync(path.join(RESULTS, "latest.md"), markdown);
    console.log(`\n${markdown}`);
    step("written bench/results/latest.json and latest.md");
  } finally {
    await stop(server);
    ceiling.kill();
  }
}

function buildScale(
  offerCount: number,
  engines: ScaleResults["engines"],
  contactLighthouse: ScaleResults["contactLighthouse"],
): ScaleResults {
  const partial = {
    offers: offerCount,
    contacts: CONTACTS,
    engines,
    contactLighthouse,
    searchScript: searchScriptSize(ROOT),
  };
  return { ...partial, targets: scaleTargets(partial) };
}

/** bench/results/scale.json and scale.md: the administration at scale, also in a full run. */
function writeScale(scale: ScaleResults) {
  const header = `# Benchmark at scale — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC (commit ${gitCommit()})\n\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, load average at the end ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(
      " ",
    )} (shared machine: compare ratios within one run). docs/benchmark.md explains the figures.\n\n`;
  writeFileSync(
    path.join(RESULTS, "scale.json"),
    `${JSON.stringify({ date: new Date().toISOString(), commit: gitCommit(), ...scale }, null, 2)}\n`,
  );
  writeFileSync(path.join(RESULTS, "scale.md"), header + scaleMarkdown(scale));
  console.log(`\n${scaleMarkdown(scale)}`);
  step("written bench/results/scale.json and scale.md");
}

function gitCommit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
  } catch {
    return "unknown";
  }
}

function chromiumVersion(): string {
  try {
    return execFileSync(process.env.CHROME_PATH ?? "/usr/bin/chromium", ["--version"])
      .toString()
      .trim();
  } catch {
    return "unknown";
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
