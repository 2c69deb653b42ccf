import { gzipSync } from "node:zlib";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";

export type LighthouseResult = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  /** JavaScript over the wire as Lighthouse saw it (the server may pick brotli). */
  jsTransferBytes: number;
  /** The same scripts compressed with gzip -9, the unit of the budget. */
  jsGzipBytes: number;
  scripts: string[];
  runs: number;
  /** Lighthouse's CPU benchmark of this machine during the median run (higher is faster). */
  benchmarkIndex: number;
};

// Debian's Chromium, kept off the network.
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

async function once(url: string): Promise<Lhr> {
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: CHROME_FLAGS,
    logLevel: "silent",
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse's default (mobile) profile with simulated throttling, `runs` times; the median run
 * (Lighthouse's own choice, by FCP and TTI) is reported.
 */
export async function audit(url: string, runs: number): Promise<LighthouseResult> {
  const lhrs: Lhr[] = [];
  for (let i = 0; i < runs; i++) lhrs.push(await once(url));
  const lhr = computeMedianRun(lhrs) as Lhr;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = (lhr.audits["network-requests"]?.details as {
    items: { url: string; resourceType?: string; transferSize?: number }[];
  }) ?? { items: [] };
  const scripts = requests.items.filter((item) => item.resourceType === "Script");
  let jsGzipBytes = 0;
  for (const script of scripts) {
    const body = Buffer.from(await (await fetch(script.url)).arrayBuffer());
    jsGzipBytes += gzipSync(body, { level: 9 }).length;
  }
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcpMs: Math.round(numeric("largest-contentful-paint")),
    fcpMs: Math.round(numeric("first-contentful-paint")),
    tbtMs: Math.round(numeric("total-blocking-time")),
    cls: Number(numeric("cumulative-layout-shift").toFixed(3)),
    jsTransferBytes: scripts.reduce((sum, s) => sum + (s.transferSize ?? 0), 0),
    jsGzipBytes,
    scripts: scripts.map((s) => new URL(s.url).pathname),
    runs,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
  };
}
