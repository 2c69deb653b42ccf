import type { IndexReport } from "./data";
import type { LoadResult } from "./http";
import type { LighthouseResult } from "./lighthouse";
import type { ScaleResults } from "./scale";

export type BenchResults = {
  date: string;
  commit: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    loadAverage: number[];
    node: string;
    chromium: string;
  };
  settings: {
    offers: number;
    durationSeconds: number;
    connections: number;
    lighthouseRuns: number;
    database: string;
    offerPage: string;
  };
  http: {
    route: string;
    variant: string;
    bytes: number;
    result: LoadResult;
    ceiling: LoadResult;
    /** The static server sending the page's own headers (cached pages only). */
    sameHeadersCeiling?: LoadResult;
    /** req/s over the ceiling's (median of interleaved rounds when measured so). */
    ratio: number;
    sameHeadersRatio?: number;
    /** The static server sending as many ASCII 'x' (cached pages only). */
    asciiCeiling?: LoadResult;
    asciiRatio?: number;
  }[];
  lighthouse: {
    page: string;
    path: string;
    result: LighthouseResult;
    /** Measured for comparison, not one of the targets' pages. */
    informational?: boolean;
  }[];
  memory: { startupMb: number; idleMb: number; peakUnderLoadMb: number };
  indexes: (IndexReport | { engine: string; skipped: string })[];
  targets: { target: string; measured: string; met: boolean }[];
  seconds: number;
  /** The administration at scale (issue 11). */
  scale?: ScaleResults;
};

const pct = (ratio: number) => `${Math.round(ratio * 100)} %`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The targets (README, Performance), checked against one run. */
export function evaluateTargets(results: BenchResults): BenchResults["targets"] {
  const targets: BenchResults["targets"] = [];
  for (const { page, result } of results.lighthouse.filter((l) => !l.informational)) {
    const scores = [result.performance, result.accessibility, result.bestPractices, result.seo];
    targets.push({
      target: `Lighthouse 100 ×4 and CLS 0 — ${page}`,
      measured: `${scores.join(" / ")}, CLS ${result.cls}`,
      met: scores.every((s) => s === 100) && result.cls === 0,
    });
    targets.push({
      target: `LCP ≤ 1.2 s and TBT ≤ 50 ms — ${page}`,
      measured: `LCP ${(result.lcpMs / 1000).toFixed(2)} s, TBT ${result.tbtMs} ms`,
      met: result.lcpMs <= 1200 && result.tbtMs <= 50,
    });
  }
  for (const { page, result } of results.lighthouse.filter(
    (l) => l.page === "/" || l.page === "offer page",
  )) {
    targets.push({
      target: `JavaScript ≤ 50 KB gzip — ${page}`,
      measured: kb(result.jsGzipBytes),
      met: result.jsGzipBytes <= 50 * 1024,
    });
  }
  for (const row of results.http.filter((r) => r.variant === "cached")) {
    targets.push({
      target: `Cached page ≥ 50 % of the static ceiling — ${row.route}`,
      measured:
        `${row.result.rps} / ${row.ceiling.rps} req/s: ${pct(row.ratio)}` +
        (row.sameHeadersRatio !== undefined
          ? ` (${pct(row.sameHeadersRatio)} of the file with the page's headers)`
          : ""),
      met: row.ratio >= 0.5 && row.result.non2xx === 0,
    });
  }
  const filtered = results.http.find(
    (r) => r.variant === "uncached, 1 connection" && r.route.startsWith("/offers?q="),
  );
  const loaded = results.http.find(
    (r) => r.variant === "uncached" && r.route.startsWith("/offers?q="),
  );
  if (filtered) {
    targets.push({
      target: `Uncached filtered listing p99 < 50 ms (${results.settings.offers} offers, one connection)`,
      measured:
        `p99 ${filtered.result.p99} ms (p50 ${filtered.result.p50} ms)` +
        (loaded
          ? `; under ${results.settings.connections} connections p99 ${loaded.result.p99} ms`
          : ""),
      met: filtered.result.p99 < 50,
    });
  }
  return targets;
}

function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

export function markdownReport(r: BenchResults): string {
  const out: string[] = [];
  out.push(`# Benchmark — ${r.date.slice(0, 16).replace("T", " ")} UTC (commit ${r.commit})`);
  out.push("");
  out.push(
    `${r.settings.offers} offers in ${r.settings.database}; built server on loopback; ` +
      `autocannon ${r.settings.connections} connections × ${r.settings.durationSeconds} s per run; ` +
      `Lighthouse 12 mobile (simulated throttling), median of ${r.settings.lighthouseRuns} runs. ` +
      `Machine: ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGb} GB, Node ${r.machine.node}, ` +
      `${r.machine.chromium}; load average at the end ${r.machine.loadAverage.join(" ")} ` +
      `(the machine is shared: compare ratios within one run). Whole run: ${r.seconds} s.`,
  );

  out.push("", "## Targets", "");
  out.push(
    table(
      ["Target", "Measured", "Met"],
      r.targets.map((t) => [t.target, t.measured, t.met ? "yes" : "**no**"]),
    ),
  );

  out.push("", "## HTTP (autocannon)", "");
  out.push(
    "Ceiling: a minimal `node:http` server answering the page's own bytes as a static file, from " +
      "memory, with 2 headers. Same headers: that file with the page's own headers (security " +
      "headers, a 300-byte CSP, caching headers). ASCII: a file of as many 'x' (the load generator " +
      "handles such a body much faster than real HTML, so it is no fair ceiling; shown for " +
      "comparison). Cached runs and their ceilings are interleaved (3 rounds); ratios are the " +
      "median of the rounds' ratios. Uncached: the same request with a cookie, which makes the " +
      "page cache step aside.",
    "",
  );
  out.push(
    table(
      [
        "Route",
        "Variant",
        "Body",
        "req/s",
        "p50 ms",
        "p99 ms",
        "Ceiling req/s",
        "Ratio",
        "Same headers",
        "Ratio",
        "ASCII",
        "Ratio",
        "Non-2xx",
      ],
      r.http.map((h) => [
        h.route,
        h.variant,
        kb(h.bytes),
        h.result.rps,
        h.result.p50,
        h.result.p99,
        h.ceiling.rps,
        pct(h.ratio),
        h.sameHeadersCeiling?.rps ?? "",
        h.sameHeadersRatio !== undefined ? pct(h.sameHeadersRatio) : "",
        h.asciiCeiling?.rps ?? "",
        h.asciiRatio !== undefined ? pct(h.asciiRatio) : "",
        h.result.non2xx + h.result.errors,
      ]),
    ),
  );

  out.push("", "## Lighthouse (mobile)", "");
  out.push(
    table(
      [
        "Page",
        "Perf.",
        "A11y",
        "Best pr.",
        "SEO",
        "LCP",
        "FCP",
        "TBT",
        "CLS",
        "JS gzip",
        "JS transferred",
      ],
      r.lighthouse.map(({ page, result: l }) => [
        page,
        l.performance,
        l.accessibility,
        l.bestPractices,
        l.seo,
        `${(l.lcpMs / 1000).toFixed(2)} s`,
        `${(l.fcpMs / 1000).toFixed(2)} s`,
        `${l.tbtMs} ms`,
        l.cls,
        kb(l.jsGzipBytes),
        kb(l.jsTransferBytes),
      ]),
    ),
  );

  out.push("", "## Server memory (RSS)", "");
  out.push(
    table(
      ["After start", "Idle (pages cached)", "Peak under load"],
      [[`${r.memory.startupMb} MB`, `${r.memory.idleMb} MB`, `${r.memory.peakUnderLoadMb} MB`]],
    ),
  );

  out.push("", "## What each index buys (median ms per query)", "");
  for (const report of r.indexes) {
    if ("skipped" in report) {
      out.push(`${report.engine}: skipped (${report.skipped}).`, "");
      continue;
    }
    const queries = Object.keys(report.medians);
    const columns = Object.keys(report.medians[queries[0]] ?? {});
    out.push(
      `**${report.engine}** (${report.runs} runs each; an index set is dropped inside a rolled-back transaction)`,
      "",
    );
    out.push(
      table(
        ["Query", ...columns],
        queries.map((q) => [q, ...columns.map((c) => report.medians[q][c].toFixed(2))]),
      ),
    );
    for (const [name, plan] of Object.entries(report.plans)) {
      out.push(
        "",
        `<details><summary>Plan: ${name}</summary>`,
        "",
        "```",
        plan,
        "```",
        "</details>",
      );
    }
    out.push("");
  }
  return `${out.join("\n")}\n`;
}
