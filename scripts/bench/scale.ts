import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { DatabaseHandle } from "../../app/server/db.server";
import {
  dashboardPlans,
  measurePages,
  PAGE_LIMITS,
  pageIds,
  QUOTE_PDF_LIMIT_MS,
  REFERENCE_PATH,
  signIn,
  type DashboardPlan,
  type PageIds,
  type PageMeasure,
} from "./admin-pages";
import { BENCH_CONTACTS, generateContactRequests } from "./contacts";
import type { LighthouseResult } from "./lighthouse";

// The administration at scale (issue 11): 10,000 offers and 100,000 contact requests, on each
// engine. docs/benchmark.md explains the figures.

export type ScalePrepared = {
  engine: string;
  contacts: Awaited<ReturnType<typeof generateContactRequests>>;
  contactsSeconds: number;
  ids: PageIds;
  dashboard: DashboardPlan[];
};

export type ScaleEngineResult = ScalePrepared & { pages: PageMeasure[]; runs: number };

export type ScaleResults = {
  offers: number;
  contacts: number;
  engines: (ScaleEngineResult | { engine: string; skipped: string })[];
  /** Lighthouse mobile on /contact at 10,000 offers (the search field). */
  contactLighthouse?: LighthouseResult;
  /** The combobox script, as built and gzip -9. */
  searchScript?: { file: string; bytes: number; gzipBytes: number };
  targets: { target: string; measured: string; met: boolean }[];
};

/** With the catalogue in place: the requests, the ids the pages need, the dashboard's plans. */
export async function prepareScale(
  handle: DatabaseHandle,
  engine: string,
  count = BENCH_CONTACTS,
): Promise<ScalePrepared> {
  const start = Date.now();
  const contacts = await generateContactRequests(handle.db, count);
  const contactsSeconds = Math.round((Date.now() - start) / 1000);
  const ids = await pageIds(handle.db);
  const dashboard = await dashboardPlans(handle);
  return { engine, contacts, contactsSeconds, ids, dashboard };
}

export async function measureScale(
  prepared: ScalePrepared,
  server: { base: string; pid: number; restart?: () => Promise<{ base: string; pid: number }> },
  runs: number,
  log: (message: string) => void,
): Promise<ScaleEngineResult> {
  const cookie = await signIn(server.base);
  const restart = server.restart;
  const pages = await measurePages({
    base: server.base,
    cookie,
    pid: server.pid,
    restart: restart
      ? async () => {
          log("  (a page did not finish: the server is restarted)");
          const fresh = await restart();
          return { ...fresh, cookie: await signIn(fresh.base) };
        }
      : undefined,
    ids: prepared.ids,
    runs,
    log,
  });
  return { ...prepared, pages, runs };
}

export function searchScriptSize(root: string): ScaleResults["searchScript"] {
  const dir = path.join(root, "build/client/assets");
  const file = readdirSync(dir).find((f) => /^contact-offer-search-.*\.js$/.test(f));
  if (!file) return undefined;
  const body = readFileSync(path.join(dir, file));
  return { file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function scaleTargets(results: Omit<ScaleResults, "targets">): ScaleResults["targets"] {
  const targets: ScaleResults["targets"] = [];
  for (const engine of results.engines) {
    if ("skipped" in engine) continue;
    const pages = engine.pages.filter((p) => p.available && !/\.(csv|pdf)$/.test(p.name));
    for (const pdf of engine.pages.filter((p) => p.name.endsWith(".pdf"))) {
      targets.push({
        target: `${pdf.name} (${engine.engine}): ≤ ${QUOTE_PDF_LIMIT_MS} ms at the server`,
        measured: pdf.available
          ? `${pdf.medianMs} ms (median of ${pdf.runs}), ${kb(pdf.bytes ?? 0)}`
          : (pdf.note ?? `HTTP ${pdf.status}`),
        met: pdf.available && (pdf.medianMs ?? Infinity) <= QUOTE_PDF_LIMIT_MS,
      });
    }
    for (const page of pages) {
      const bytes = page.bytes ?? 0;
      const elements = page.elements ?? 0;
      const ratio = page.ratio ?? Number.POSITIVE_INFINITY;
      targets.push({
        target: `${page.name} (${engine.engine}): ≤ 200 KB, ≤ 5,000 elements, ≤ 10× the listing`,
        measured: `${page.truncated ? "> " : ""}${kb(bytes)}, ${page.truncated ? "> " : ""}${elements} elements, ${ratio}× (${page.medianMs} ms / ${page.referenceMedianMs} ms)`,
        met:
          !page.truncated &&
          bytes <= PAGE_LIMITS.bytes &&
          elements <= PAGE_LIMITS.elements &&
          ratio <= PAGE_LIMITS.ratio,
      });
    }
    const worst = Math.max(0, ...engine.dashboard.map((d) => d.contactRowsRead));
    const seq = engine.dashboard.some((d) => d.seqScanOfContacts);
    targets.push({
      target: `Dashboard counts without a full scan of contact_requests (${engine.engine})`,
      measured: `${engine.dashboard.length} queries; at most ${worst} rows of contact_requests read${seq ? ", sequential scan" : ""}`,
      // A full scan reads every row; reading under 1 % of them is no scan of the table.
      met: engine.dashboard.length > 0 && !seq && worst < engine.contacts.total / 100,
    });
  }
  const lh = results.contactLighthouse;
  if (lh) {
    targets.push({
      target: `Lighthouse mobile 100 and TBT ≤ 50 ms — /contact at ${results.offers} offers`,
      measured: `performance ${lh.performance}, TBT ${lh.tbtMs} ms, LCP ${(lh.lcpMs / 1000).toFixed(2)} s, CLS ${lh.cls}`,
      met: lh.performance === 100 && lh.tbtMs <= 50,
    });
  }
  return targets;
}

const cell = (value: string | number | undefined) => (value === undefined ? "" : String(value));

export function scaleMarkdown(results: ScaleResults): string {
  const lines: string[] = [];
  lines.push(
    `${results.offers} offers, ${results.contacts} contact requests. Server time: the median of the run's requests to each page (signed in as an administrator, so no page comes from the page cache), each request right after one of the reference, the uncached public filtered listing \`${REFERENCE_PATH}\`; ratio = page median / reference median. Elements: start tags in the HTML. Pages not built yet answer 404: 'not available'.`,
    "",
    "### Targets",
    "",
    "| Target | Measured | Met |",
    "| --- | --- | --- |",
  );
  for (const t of results.targets)
    lines.push(`| ${t.target} | ${t.measured} | ${t.met ? "yes" : "**no**"} |`);
  if (results.searchScript) {
    lines.push(
      "",
      `Combobox script (\`${results.searchScript.file}\`): ${kb(results.searchScript.bytes)}, ${kb(results.searchScript.gzipBytes)} gzip -9; loaded only by /contact when the catalogue is above CONTACT_OFFER_SELECT_MAX.`,
    );
  }
  const lh = results.contactLighthouse;
  if (lh) {
    lines.push(
      "",
      `Lighthouse mobile, /contact at ${results.offers} offers (median of ${lh.runs}): ${lh.performance} / ${lh.accessibility} / ${lh.bestPractices} / ${lh.seo}, LCP ${(lh.lcpMs / 1000).toFixed(2)} s, FCP ${(lh.fcpMs / 1000).toFixed(2)} s, TBT ${lh.tbtMs} ms, CLS ${lh.cls}, JavaScript ${kb(lh.jsGzipBytes)} gzip (${lh.scripts.join(", ")}).`,
    );
  }
  for (const engine of results.engines) {
    lines.push("", `### ${engine.engine}`, "");
    if ("skipped" in engine) {
      lines.push(`Skipped: ${engine.skipped}.`);
      continue;
    }
    const c = engine.contacts;
    lines.push(
      `Data: ${c.total} requests (${c.spam} suspected spam), ${c.notes} notes, ${c.changes} status changes, loaded in ${engine.contactsSeconds} s; per-status counters checked exact. ${engine.runs} requests per page.`,
      "",
      "| Page | HTTP | HTML | Elements | Median ms | Listing ms | Ratio | Notes |",
      "| --- | --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const p of engine.pages) {
      const memory =
        p.rssPeakMb !== undefined ? `server RSS ${p.rssBeforeMb} → ${p.rssPeakMb} MB` : "";
      lines.push(
        `| ${p.name} | ${p.status || "—"} | ${p.bytes !== undefined ? `${p.truncated ? "> " : ""}${kb(p.bytes)}` : ""} | ${cell(p.elements)} | ${cell(p.medianMs)} | ${cell(p.referenceMedianMs)} | ${cell(p.ratio)} | ${[p.note, memory].filter(Boolean).join("; ")} |`,
      );
    }
    for (const d of engine.dashboard) {
      lines.push(
        "",
        `<details><summary>Dashboard query: ${d.contactRowsRead} rows of contact_requests read${d.seqScanOfContacts ? " (sequential scan)" : ""}</summary>`,
        "",
        "```sql",
        d.query,
        "```",
        "",
        "```",
        d.plan,
        "```",
        "</details>",
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
