import type { IndexReport, Prepared } from "./measures";
import { REFERENCE_PATH, type PageMeasure } from "./pages";
import { kb, table } from "./markdown";
import type { LighthouseResult, LoadResult } from "./tools";

export { header, kb, table } from "./markdown";

// The one report: every mode's figures, targets and markdown (docs/benchmark.md explains them).

type Skipped = { engine: string; skipped: string };
type Target = { target: string; measured: string; met: boolean };

export type HttpRow = {
  route: string;
  variant: string;
  bytes: number;
  result: LoadResult;
  ceiling: LoadResult;
  /** req/s over the ceiling's (median of interleaved rounds when measured so). */
  ratio: number;
  /** Cached pages: the static server sending the page's own headers, and as many ASCII 'x'. */
  sameHeaders?: { result: LoadResult; ratio: number };
  ascii?: { result: LoadResult; ratio: number };
};

export type EngineScale = Omit<Prepared, "indexes"> & { pages: PageMeasure[]; runs: number };

export type BenchResults = {
  settings: Record<"offers" | "contacts" | "duration" | "connections" | "lighthouseRuns", number>;
  http?: HttpRow[];
  lighthouse?: { page: string; path: string; result: LighthouseResult; informational?: boolean }[];
  memory?: { startupMb: number; idleMb: number; peakUnderLoadMb: number };
  indexes?: (IndexReport | Skipped)[];
  engines: (EngineScale | Skipped)[];
  /** Lighthouse mobile on /contact at 10,000 offers. */
  contactLighthouse?: LighthouseResult;
  /** The combobox script, as built and gzip -9. */
  searchScript?: { file: string; bytes: number; gzipBytes: number };
};

export const QUOTE_PDF_LIMIT_MS = 200;
const LIMITS = { bytes: 200 * 1024, elements: 5000, ratio: 10 };

const pct = (ratio: number) => `${Math.round(ratio * 100)} %`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export const scores = (l: LighthouseResult) =>
  `${l.performance} / ${l.accessibility} / ${l.bestPractices} / ${l.seo}`;

/** The targets of the issues (README, docs/performance.md, docs/benchmark.md) against one run. */
export function targets(r: BenchResults): Target[] {
  const out: Target[] = [];
  const add = (target: string, measured: string, met: boolean) =>
    out.push({ target, measured, met });
  for (const { page, result: l } of (r.lighthouse ?? []).filter((l) => !l.informational)) {
    const all = [l.performance, l.accessibility, l.bestPractices, l.seo];
    add(
      `Lighthouse 100 ×4 and CLS 0 — ${page}`,
      `${scores(l)}, CLS ${l.cls}`,
      all.every((s) => s === 100) && l.cls === 0,
    );
    add(
      `LCP ≤ 1.2 s and TBT ≤ 50 ms — ${page}`,
      `LCP ${sec(l.lcpMs)}, TBT ${l.tbtMs} ms`,
      l.lcpMs <= 1200 && l.tbtMs <= 50,
    );
    if (page === "/" || page === "offer page")
      add(`JavaScript ≤ 50 KB gzip — ${page}`, kb(l.jsGzipBytes), l.jsGzipBytes <= 50 * 1024);
  }
  for (const row of (r.http ?? []).filter((h) => h.variant === "cached")) {
    const headers = row.sameHeaders
      ? ` (${pct(row.sameHeaders.ratio)} of the file with the page's headers)`
      : "";
    add(
      `Cached page ≥ 50 % of the static ceiling — ${row.route}`,
      `${row.result.rps} / ${row.ceiling.rps} req/s: ${pct(row.ratio)}${headers}`,
      row.ratio >= 0.5 && row.result.non2xx === 0,
    );
  }
  const alone = r.http?.find((h) => h.variant === "uncached, 1 connection");
  const loaded = r.http?.find((h) => h.variant === "uncached" && h.route.startsWith("/offers?q="));
  if (alone) {
    add(
      `Uncached filtered listing p99 < 50 ms (${r.settings.offers} offers, one connection)`,
      `p99 ${alone.result.p99} ms (p50 ${alone.result.p50} ms)` +
        (loaded ? `; under ${r.settings.connections} connections p99 ${loaded.result.p99} ms` : ""),
      alone.result.p99 < 50,
    );
  }
  for (const engine of r.engines) {
    if ("skipped" in engine) continue;
    const name = engine.engine;
    for (const pdf of engine.pages.filter((p) => p.name.endsWith(".pdf"))) {
      add(
        `${pdf.name} (${name}): ≤ ${QUOTE_PDF_LIMIT_MS} ms at the server`,
        pdf.available
          ? `${pdf.medianMs} ms (median of ${pdf.runs}), ${kb(pdf.bytes ?? 0)}`
          : (pdf.note ?? `HTTP ${pdf.status}`),
        pdf.available && (pdf.medianMs ?? Infinity) <= QUOTE_PDF_LIMIT_MS,
      );
    }
    for (const p of engine.pages.filter((p) => p.available && !/\.(csv|pdf)$/.test(p.name))) {
      const [bytes, elements, ratio] = [p.bytes ?? 0, p.elements ?? 0, p.ratio ?? Infinity];
      const over = p.truncated ? "> " : "";
      add(
        `${p.name} (${name}): ≤ 200 KB, ≤ 5,000 elements, ≤ 10× the listing`,
        `${over}${kb(bytes)}, ${over}${elements} elements, ${ratio}× (${p.medianMs} ms / ${p.referenceMedianMs} ms)`,
        !p.truncated &&
          bytes <= LIMITS.bytes &&
          elements <= LIMITS.elements &&
          ratio <= LIMITS.ratio,
      );
    }
    const worst = Math.max(0, ...engine.dashboard.map((d) => d.contactRowsRead));
    const seq = engine.dashboard.some((d) => d.seqScanOfContacts);
    add(
      `Dashboard counts without a full scan of contact_requests (${name})`,
      `${engine.dashboard.length} queries; at most ${worst} rows of contact_requests read${seq ? ", sequential scan" : ""}`,
      // A full scan reads every row; reading under 1 % of them is no scan of the table.
      engine.dashboard.length > 0 && !seq && worst < engine.contacts.total / 100,
    );
  }
  const lh = r.contactLighthouse;
  if (lh) {
    add(
      `Lighthouse mobile 100 and TBT ≤ 50 ms — /contact at ${r.settings.offers} offers`,
      `performance ${lh.performance}, TBT ${lh.tbtMs} ms, LCP ${sec(lh.lcpMs)}, CLS ${lh.cls}`,
      lh.performance === 100 && lh.tbtMs <= 50,
    );
  }
  return out;
}

const details = (summary: string, ...blocks: string[]) => [
  "",
  `<details><summary>${summary}</summary>`,
  ...blocks.flatMap((b) => ["", b]),
  "</details>",
];

export function markdown(r: BenchResults): string {
  const met = targets(r).map((t) => [t.target, t.measured, t.met ? "yes" : "**no**"]);
  const out = ["## Targets", "", table("Target|Measured|Met", met)];
  if (r.http) {
    const heads = "Route|Variant|Body|req/s|p50 ms|p99 ms|Ceiling req/s|Ratio|Same headers|Ratio";
    const rows = r.http.map((h) => {
      const [same, ascii] = [h.sameHeaders, h.ascii];
      const result = [h.result.rps, h.result.p50, h.result.p99, h.ceiling.rps, pct(h.ratio)];
      const ceilings = [same?.result.rps, same && pct(same.ratio), ascii?.result.rps];
      const last = [ascii && pct(ascii.ratio), h.result.non2xx + h.result.errors];
      return [h.route, h.variant, kb(h.bytes), ...result, ...ceilings, ...last];
    });
    out.push("", "## HTTP (autocannon)", "", table(`${heads}|ASCII|Ratio|Non-2xx`, rows));
  }
  if (r.lighthouse) {
    const heads = "Page|Perf.|A11y|Best pr.|SEO|LCP|FCP|TBT|CLS|JS gzip|JS transferred";
    const rows = r.lighthouse.map(({ page, result: l }) => {
      const paint = [sec(l.lcpMs), sec(l.fcpMs), `${l.tbtMs} ms`, l.cls];
      return [page, ...scores(l).split(" / "), ...paint, kb(l.jsGzipBytes), kb(l.jsTransferBytes)];
    });
    out.push("", `## Lighthouse (mobile, median of ${r.settings.lighthouseRuns})`, "");
    out.push(table(heads, rows));
  }
  if (r.memory) {
    const m = [r.memory.startupMb, r.memory.idleMb, r.memory.peakUnderLoadMb];
    out.push("", "## Server memory (RSS)", "");
    out.push(table("After start|Idle (pages cached)|Peak under load", [m.map((v) => `${v} MB`)]));
  }
  if (r.indexes) out.push("", "## What each index buys (median ms per query)", "");
  for (const report of r.indexes ?? []) {
    if ("skipped" in report) {
      out.push(`${report.engine}: skipped (${report.skipped}).`, "");
      continue;
    }
    const queries = Object.keys(report.medians);
    const columns = Object.keys(report.medians[queries[0]] ?? {});
    const rows = queries.map((q) => [q, ...columns.map((c) => report.medians[q][c].toFixed(2))]);
    out.push(`**${report.engine}** (${report.runs} runs each)`, "");
    out.push(table(["Query", ...columns].join("|"), rows));
    for (const [name, plan] of Object.entries(report.plans))
      out.push(...details(`Plan: ${name}`, `\`\`\`\n${plan}\n\`\`\``));
    out.push("");
  }
  out.push("", `## The administration at scale`, "");
  out.push(
    `${r.settings.offers} offers, ${r.settings.contacts} contact requests; reference: \`${REFERENCE_PATH}\`.`,
  );
  const script = r.searchScript;
  if (script)
    out.push(
      "",
      `Combobox script (\`${script.file}\`): ${kb(script.bytes)}, ${kb(script.gzipBytes)} gzip -9.`,
    );
  const lh = r.contactLighthouse;
  if (lh)
    out.push(
      "",
      `Lighthouse mobile, /contact at ${r.settings.offers} offers (median of ${lh.runs}): ${scores(lh)}, LCP ${sec(lh.lcpMs)}, FCP ${sec(lh.fcpMs)}, TBT ${lh.tbtMs} ms, CLS ${lh.cls}, JavaScript ${kb(lh.jsGzipBytes)} gzip (${lh.scripts.join(", ")}).`,
    );
  for (const engine of r.engines) {
    out.push("", `### ${engine.engine}`, "");
    if ("skipped" in engine) {
      out.push(`Skipped: ${engine.skipped}.`);
      continue;
    }
    const c = engine.contacts;
    out.push(
      `Data: ${c.total} requests (${c.spam} suspected spam), ${c.notes} notes, ${c.changes} status changes, loaded in ${engine.contactsSeconds} s; per-status counters checked exact. ${engine.runs} requests per page.`,
    );
    out.push("", pagesTable(engine.pages));
    for (const d of engine.dashboard) {
      const seq = d.seqScanOfContacts ? " (sequential scan)" : "";
      const summary = `Dashboard query: ${d.contactRowsRead} rows of contact_requests read${seq}`;
      out.push(...details(summary, `\`\`\`sql\n${d.query}\n\`\`\``, `\`\`\`\n${d.plan}\n\`\`\``));
    }
  }
  return `${out.join("\n")}\n`;
}

export function pagesTable(pages: PageMeasure[]): string {
  const rows = pages.map((p) => {
    const memory =
      p.rssPeakMb !== undefined ? `server RSS ${p.rssBeforeMb} → ${p.rssPeakMb} MB` : "";
    const bytes = p.bytes !== undefined ? `${p.truncated ? "> " : ""}${kb(p.bytes)}` : "";
    const times = [p.medianMs, p.referenceMedianMs, p.ratio];
    const notes = [p.note, memory].filter(Boolean).join("; ");
    return [p.name, p.status || "—", bytes, p.elements, ...times, notes];
  });
  return table("Page|HTTP|HTML|Elements|Median ms|Listing ms|Ratio|Notes", rows);
}

type Memory = { rssMb: number; heapUsedMb: number; heapTotalMb: number; externalMb: number };
export type MemoryFigures = Memory;
export type MemoryRow = {
  entry: string;
  database: string;
  idle: Memory;
  afterRequests: Memory;
  load: LoadResult;
};

export function memoryMarkdown(rows: MemoryRow[], requests: number): string {
  const figures = (f: Memory) => `${f.rssMb} MB (heap ${f.heapUsedMb}/${f.heapTotalMb} MB)`;
  const cells = rows.map((r) => [r.entry, r.database, figures(r.idle), figures(r.afterRequests)]);
  return [
    `Demo catalogue; ${requests} requests at 10 connections over the public pages (one in ten a new listing search). RSS (heap used/total).`,
    "",
    table(
      "Entry|Database|Idle|After the requests|Unexpected statuses",
      cells.map((c, i) => [...c, rows[i].load.non2xx + rows[i].load.errors]),
    ),
    "",
  ].join("\n");
}

/** The mixed load's summary (`npm run loadtest`). */
export function loadSummary(
  label: string,
  r: LoadResult,
  contacts: Record<string, number>,
  errorLines: number,
) {
  const s = r.statuses;
  return [
    `Load test — ${label}, ${r.seconds} s, loopback`,
    `  requests:        ${r.requests} (${Math.round(r.requests / r.seconds)}/s); 2xx ${s["2xx"]}, 3xx ${s["3xx"]}, 4xx ${s["4xx"]}, 5xx ${s["5xx"]}`,
    `  errors:          ${r.errors - r.timeouts} connection errors, ${r.timeouts} timeouts`,
    `  latency (ms):    p50 ${r.p50}, p90 ${r.p90}, p99 ${r.p99}, max ${r.max}`,
    `  contacts:        ${contacts.answered} answered, ${contacts.acknowledged} acknowledged as sent, ${contacts.stored} stored, ${contacts.missing} acknowledged but missing`,
    `  server errors:   ${errorLines} error log lines`,
  ].join("\n");
}
