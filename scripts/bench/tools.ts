// What every bench mode shares: the server through the tests' launcher, the one load tool
// (autocannon), process memory, Lighthouse, a scratch PostgreSQL database.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { launch as launchChrome } from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import pg from "pg";
import { findFreePort } from "../../tests/system/harness/ports";
import { ROOT, startServer, type ServerProcess } from "../../tests/system/harness/server-process";

export { ROOT };
export const RESULTS = path.join(ROOT, "bench/results");
export const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";

/** The values at quantiles `qs` of `values` (0.5: the median, 1: the highest). */
export const quantiles = (values: number[], qs: number[]) =>
  qs.map((q) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]);
export const median = (values: number[]) => quantiles(values, [0.5])[0];
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** `npm start`'s node flags, read from package.json so that the bench follows it. */
export const startFlags = (root = ROOT) =>
  (
    JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      scripts: { start: string };
    }
  ).scripts.start
    .split(/\s+/)
    .filter((w) => w.startsWith("--"));
export const START_FLAGS = startFlags();

/**
 * The built server as `npm start` runs it, through the tests' launcher, on a free port. The bench
 * sends no X-Forwarded-For: the tests' proxy setting is removed unless `env` sets it; all its load
 * comes from one address: the per-client limits are off unless `env` sets them (flood mode).
 * `root`: another checkout's build (compare mode).
 */
export async function launch(
  env: Record<string, string | undefined>,
  nodeArgs = START_FLAGS,
  root?: string,
): Promise<ServerProcess> {
  const off = { PUBLIC_RENDER_RATE_PER_MINUTE: "0", QUOTE_PDF_RATE_PER_MINUTE: "0" };
  const defaults = { LOG_LEVEL: "error", TRUST_PROXY: undefined, SHUTDOWN_TIMEOUT_SECONDS: "1" };
  const port = await findFreePort();
  const options = { port, nodeArgs, root, env: { ...defaults, ...off, ...env } };
  const server = startServer(options);
  const errorLine = /"level":"(error|fatal)"/;
  server.child.stderr?.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) if (errorLine.test(line)) console.error(line);
  });
  return server.ready();
}

export type LoadResult = Awaited<ReturnType<typeof load>>;

/** The one load tool: autocannon, summarised. */
export async function load(options: autocannon.Options) {
  const r = await autocannon({ timeout: 10, ...options });
  const statuses = Object.fromEntries(
    (["1xx", "2xx", "3xx", "4xx", "5xx"] as const).map((k) => [k, r[k]]),
  ) as Record<"1xx" | "2xx" | "3xx" | "4xx" | "5xx", number>;
  return {
    rps: Math.round(r.requests.average),
    ...{ p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    requests: Object.values(statuses).reduce((a, b) => a + b, 0),
    errors: r.errors + r.timeouts, // connection errors and timeouts
    ...{ non2xx: r.non2xx, timeouts: r.timeouts, seconds: r.duration, statuses },
  };
}

export type Interleaved = {
  result: LoadResult;
  cpuMsPerRequest?: number;
  rounds: LoadResult[];
  ratioTo(other: Interleaved): number;
};

/**
 * The targets in turn, `rounds` times, each for its share of the duration, so that a busy moment
 * of the shared machine weighs on all alike. req/s: mean of the rounds; p50: median; p99: the
 * highest; ratioTo: the median of the rounds' ratios.
 */
export async function interleaved(
  targets: autocannon.Options[],
  rounds = 3,
  serverPid?: number,
): Promise<Interleaved[]> {
  const runs: LoadResult[][] = targets.map(() => []);
  const cpu: number[] = targets.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    for (const [i, t] of targets.entries()) {
      const before = serverPid ? cpuMs(serverPid) : 0;
      runs[i].push(await load({ ...t, duration: Math.max(1, Number(t.duration ?? 10) / rounds) }));
      if (serverPid) cpu[i] += cpuMs(serverPid) - before;
    }
  }
  const requests = (rs: LoadResult[]) => rs.reduce((sum, r) => sum + r.requests, 0);
  return runs.map((rs, i) => ({
    rounds: rs,
    // The server's CPU time (user and system) per answer, when its pid is given.
    cpuMsPerRequest: serverPid ? cpu[i] / Math.max(1, requests(rs)) : undefined,
    result: {
      ...rs[0],
      rps: Math.round(rs.reduce((sum, r) => sum + r.rps, 0) / rs.length),
      p50: median(rs.map((r) => r.p50)),
      p99: Math.max(...rs.map((r) => r.p99)),
      requests: requests(rs),
      non2xx: rs.reduce((sum, r) => sum + r.non2xx, 0),
      errors: rs.reduce((sum, r) => sum + r.errors, 0),
    },
    ratioTo: (other) => median(rs.map((r, i) => r.rps / other.rounds[i].rps)),
  }));
}

/** CPU time (user and system) a process has used, in ms (Linux: /proc, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0) / 1024);
}

/** Samples a process's RSS every `everyMs` until stop(), which returns the highest value seen. */
export function sampleRss(pid: number, everyMs = 200) {
  let peak = rssMb(pid);
  const sample = () => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // the process is gone
    }
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** A fresh database on the PostgreSQL server, or why there is none. */
export async function scratchPostgres(prefix: string) {
  if (process.env.BENCH_POSTGRES === "0") return "BENCH_POSTGRES=0";
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return "not reachable (BENCH_DATABASE_URL)";
  }
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  await admin.query(`create database ${name}`);
  const version = (await admin.query("show server_version")).rows[0].server_version as string;
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    engine: `PostgreSQL ${version}`,
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export type LighthouseResult = Awaited<ReturnType<typeof audit>>;

// Debian's Chromium, kept off the network.
const CHROME_FLAGS = `--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync`.split(/\s+/);

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

/**
 * Lighthouse `runs` times with simulated throttling; the median run (Lighthouse's own choice) is
 * reported. Mobile profile, four categories; `admin`: desktop, performance, accessibility and best
 * practices, signed in with the cookie.
 */
export async function audit(url: string, runs: number, admin?: { cookie: string }) {
  const lhrs: Lhr[] = [];
  for (let i = 0; i < runs; i++) {
    const chrome = await launchChrome({
      chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
      chromeFlags: CHROME_FLAGS,
      logLevel: "silent",
    });
    try {
      const flags = {
        port: chrome.port,
        output: "json" as const,
        logLevel: "error" as const,
        onlyCategories: admin
          ? ["performance", "accessibility", "best-practices"]
          : ["performance", "accessibility", "best-practices", "seo"],
        extraHeaders: admin ? { Cookie: admin.cookie } : undefined,
      };
      const result = await lighthouse(url, flags, admin ? desktopConfig : undefined);
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      lhrs.push(result.lhr);
    } finally {
      chrome.kill();
    }
  }
  const lhr = (lhrs.length === 1 ? lhrs[0] : computeMedianRun(lhrs)) as Lhr;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  type Item = { url: string; resourceType?: string; transferSize?: number };
  const items = (lhr.audits["network-requests"]?.details as { items: Item[] } | undefined)?.items;
  const scripts = (items ?? []).filter((item) => item.resourceType === "Script");
  let jsGzipBytes = 0;
  for (const script of scripts) {
    const body = Buffer.from(await (await fetch(script.url)).arrayBuffer());
    jsGzipBytes += gzipSync(body, { level: 9 }).length;
  }
  type Detail = { node?: { snippet?: string }; description?: string };
  const failures = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
    .map((a) => {
      const details = ((a.details as { items?: Detail[] } | undefined)?.items ?? []).slice(0, 5);
      const lines = details.map((d) => d.node?.snippet ?? d.description ?? JSON.stringify(d));
      return [`✗ ${a.id}: ${a.title}`, ...lines.map((l) => `    ${l.slice(0, 200)}`)].join("\n");
    });
  // What moved, largest first (Lighthouse 12's layout-shifts audit: the element and its score).
  type Shift = { node?: { snippet?: string; selector?: string }; score?: number };
  const shiftItems = (lhr.audits["layout-shifts"]?.details as { items?: Shift[] } | undefined)
    ?.items;
  const shifts = (shiftItems ?? [])
    .slice(0, 5)
    .map((s) => `${(s.score ?? 0).toFixed(3)} ${s.node?.selector ?? ""} ${s.node?.snippet ?? ""}`);
  return {
    ...{ performance: score("performance"), accessibility: score("accessibility") },
    ...{ bestPractices: score("best-practices"), seo: score("seo") },
    lcpMs: Math.round(numeric("largest-contentful-paint")),
    fcpMs: Math.round(numeric("first-contentful-paint")),
    tbtMs: Math.round(numeric("total-blocking-time")),
    cls: Number(numeric("cumulative-layout-shift").toFixed(3)),
    shifts,
    // Over the wire as Lighthouse saw it (brotli), and gzip -9, the unit of the budgets.
    jsTransferBytes: scripts.reduce((sum, s) => sum + (s.transferSize ?? 0), 0),
    jsGzipBytes,
    scripts: scripts.map((s) => new URL(s.url).pathname),
    runs,
    // Lighthouse's CPU benchmark of this machine during the median run (higher is faster).
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    failures,
  };
}

export function gitCommit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
  } catch {
    return "unknown";
  }
}
