// `uncached` (issues 31 and 39, demo catalogue): pages no cache holds, in turns with the cached
// listing: /contact, one search repeated (memos keyed by its query answer after the first render),
// searches as buyers type them (each address asked once per run), a configured offer; then the
// inline stylesheet of the public pages, read whole, and Lighthouse mobile on them.
import { REFERENCE_PATH } from "./pages";
import * as report from "./report";
import { step, write } from "./results";
import { buyerSearches, onceEach, SEARCH_TERMS } from "./searches";
import * as tools from "./tools";

/** The public pages' budget of inline CSS (issue 39). */
export const INLINE_CSS_BUDGET = 25 * 1024;

/** The bytes of every inline <style> of `html`, read to its `</style>` (CSS may hold a `<`). */
export function inlineCssBytes(html: string): number {
  let bytes = 0;
  for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) {
    bytes += Buffer.byteLength(m[1]);
  }
  return bytes;
}

const text = async (url: string) => (await fetch(url)).text();

export async function uncached(settings: {
  duration: number;
  connections: number;
  lighthouseRuns: number;
}) {
  const server = await tools.launch({ SEED_DEMO: "true" });
  const browser = { "Accept-Encoding": "gzip, deflate, br" };
  const withCookie = { ...browser, Cookie: "x=uncached" };
  const searches = onceEach(buyerSearches());
  const distinct = (headers: Record<string, string>) => ({
    headers,
    requests: [{ setupRequest: (request: object) => ({ ...request, path: searches.next() }) }],
  });
  type Page = [name: string, path: string, options: object];
  const pages: Page[] = [
    ["/offers, cached", "/offers", { headers: browser }],
    ["/contact (kept, a fresh token per answer)", "/contact", { headers: browser }],
    ["one search repeated, uncached (a cookie)", REFERENCE_PATH, { headers: withCookie }],
    // The reference search lists no demo offer (the EPYC ones cost more than 500 €): one that does.
    ["search listing 4 offers, repeated, uncached", "/offers?q=epyc", { headers: withCookie }],
    ["searches as typed, each once, a cookie", "/offers?…", distinct(withCookie)],
    ["searches as typed, each once, no cookie (cache misses)", "/offers?…", distinct(browser)],
    [
      "configured offer, uncached",
      "/offers/epyc-performance-64?o0=1&o2=4",
      { headers: withCookie },
    ],
  ];
  const [cachedRow, repeatedRow] = [0, 2];
  try {
    for (const [, page] of pages.filter(([, p]) => !p.endsWith("…"))) {
      for (let i = 0; i < 3; i++) await text(`${server.base}${page}`);
    }
    const base = { duration: settings.duration * 2, connections: settings.connections };
    step(`${pages.length} targets in turns, ${base.duration} s each`);
    const measured = await tools.interleaved(
      pages.map(([, page, options]) => ({
        ...base,
        url: `${server.base}${page.endsWith("…") ? "/offers" : page}`,
        ...options,
      })),
      3,
      server.pid,
    );
    if (searches.wrapped) {
      throw new Error(
        `${searches.asked} searches asked, more than the list holds: shorten the run`,
      );
    }
    const rows = measured.map((m, i) => [
      ...pages[i].slice(0, 2),
      m.result.rps,
      m.result.p99,
      m.cpuMsPerRequest?.toFixed(2),
      m.ratioTo(measured[cachedRow]).toFixed(3),
      m.ratioTo(measured[repeatedRow]).toFixed(2),
      m.result.non2xx,
    ]);
    const css = [];
    for (const page of ["/", "/offers", "/offers/epyc-performance-64", "/contact", "/auth"]) {
      const bytes = inlineCssBytes(await text(`${server.base}${page}`));
      const budget =
        page === "/auth"
          ? "(admin: not budgeted)"
          : bytes <= INLINE_CSS_BUDGET
            ? "yes"
            : "**over**";
      css.push([page, report.kb(bytes), bytes, budget]);
    }
    const lighthouse = [];
    for (const page of ["/", "/offers", "/offers/epyc-performance-64", "/contact"]) {
      step(`Lighthouse ${page}`);
      const lh = await tools.audit(`${server.base}${page}`, settings.lighthouseRuns);
      lighthouse.push([page, report.scores(lh), lh.lcpMs, lh.tbtMs, lh.cls, lh.failures.join(" ")]);
    }
    const heads =
      "Page|Performance / Accessibility / Best practices / SEO|LCP ms|TBT ms|CLS|Failed";
    const loadHeads =
      "Page|Path|req/s|p99 ms|Server CPU ms per answer|÷ cached listing|÷ one search repeated|Non-2xx";
    const markdown = [
      report.table(loadHeads, rows),
      "",
      `Searches as typed: ${SEARCH_TERMS.length} terms (the empty one included) with type, budget, one more criterion and order, ${searches.asked} distinct canonical addresses asked in this run, none twice.`,
      "",
      "## Inline CSS, read whole to `</style>` (≤ 25 KB on public pages)",
      "",
      report.table("Page|CSS|Bytes|Within budget", css),
      "",
      `## Lighthouse mobile, median of ${settings.lighthouseRuns} (target 100)`,
      "",
      report.table(heads, lighthouse),
      "",
    ].join("\n");
    const run = `Demo catalogue; autocannon ${settings.connections} connections, 3 interleaved rounds; server CPU from /proc.`;
    write("uncached", "Pages no cache holds", run, markdown, {
      rows,
      css,
      lighthouse,
      searchesAsked: searches.asked,
    });
  } finally {
    await server.stop();
  }
}
