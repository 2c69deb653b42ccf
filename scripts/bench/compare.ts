// `compare` (issue 43): another commit's build (default 5e5dca2, before issue 43's rework) and
// today's, side by side in one run, each on its own data directory seeded with the demo catalogue
// as `uncached` seeds it. Per page, rounds in turns (old, new, then new, old, ...) so that a busy
// moment of the shared machine weighs on both; req/s is the mean of the rounds, the ratio new/old
// the median of the rounds' ratios. Target: every ratio ≥ 0.90.
import { baselineBuild } from "./baseline";
import { table } from "./markdown";
import { step, write } from "./results";
import { buyerSearches, onceEach } from "./searches";
import * as tools from "./tools";

export const DEFAULT_BASELINE = "5e5dca2";
/** Within 10 % of the baseline's rate, or better. */
export const TARGET_RATIO = 0.9;

type Settings = {
  ref: string;
  newRef?: string;
  duration: number;
  connections: number;
  rounds: number;
};
type Server = Awaited<ReturnType<typeof tools.launch>>;

const BROWSER = { "Accept-Encoding": "gzip, deflate, br" };
const UNCACHED = { ...BROWSER, Cookie: "x=uncached" }; // a cookie: the page cache steps aside

/** A page as each server is asked it: a fixed path, or one per request from a cursor. */
type Page = { name: string; path: string; options: () => object };
const fixed = (name: string, path: string, headers = BROWSER): Page => ({
  name,
  path,
  options: () => ({ headers }),
});

/** Searches as buyers type them, each asked once of each server (its own cursor, same order). */
function distinctSearches(): Page & { cursors: ReturnType<typeof onceEach>[] } {
  const paths = buyerSearches();
  const cursors: ReturnType<typeof onceEach>[] = [];
  return {
    name: "searches as typed, each once (cache misses)",
    path: "/offers?…",
    cursors,
    options: () => {
      const cursor = onceEach(paths);
      cursors.push(cursor);
      const setupRequest = (request: object) => ({ ...request, path: cursor.next() });
      return { headers: BROWSER, requests: [{ setupRequest }] };
    },
  };
}

const CONFIGURED = "/offers/epyc-performance-64?o0=1&o2=4";

export async function compare(settings: Settings) {
  const base = baselineBuild(settings.ref, step);
  // The new side: this tree's build, or another commit's in its own worktree.
  const other = settings.newRef ? baselineBuild(settings.newRef, step) : undefined;
  const head = other?.commit ?? `${tools.gitCommit()} (this tree)`;
  const seed = { SEED_DEMO: "true" };
  step(`starting ${base.commit} (${base.root}) and ${head}`);
  const servers: { label: string; server: Server }[] = [];
  try {
    servers.push({
      label: base.commit,
      server: await tools.launch(seed, tools.startFlags(base.root), base.root),
    });
    const newFlags = tools.startFlags(other?.root);
    servers.push({ label: head, server: await tools.launch(seed, newFlags, other?.root) });
    const searches = distinctSearches();
    const pages: Page[] = [
      fixed("/offers, cached", "/offers"),
      searches,
      fixed("configured offer", CONFIGURED),
      fixed("configured offer, uncached (a cookie)", CONFIGURED, UNCACHED),
      fixed("/contact", "/contact"),
    ];
    for (const { server } of servers)
      for (const page of pages.filter((p) => !p.path.endsWith("…")))
        for (let i = 0; i < 3; i++) await fetch(`${server.base}${page.path}`, page.options());
    const rows: unknown[][] = [];
    const json = [];
    for (const page of pages) {
      step(`${page.name}: ${settings.rounds} rounds of ${settings.duration} s per server`);
      const measured = await inTurns(servers, page, settings);
      const [old, now] = measured;
      const ratios = old.map((o, i) => now[i].rps / o.rps);
      const ratio = tools.median(ratios);
      const rps = (rs: tools.LoadResult[]) =>
        Math.round(rs.reduce((sum, r) => sum + r.rps, 0) / rs.length);
      const non2xx = (rs: tools.LoadResult[]) => rs.reduce((n, r) => n + r.non2xx + r.errors, 0);
      const verdict = ratio >= TARGET_RATIO ? "yes" : "**no**";
      rows.push([page.name, page.path, rps(old), rps(now), ratio.toFixed(3), verdict]);
      rows[rows.length - 1].push(`${non2xx(old)} / ${non2xx(now)}`);
      json.push({ page: page.name, path: page.path, old, now, ratio, ratios });
    }
    const heads = `Page|Path|${base.commit} req/s|${head} req/s|new ÷ old (≥ ${TARGET_RATIO})|Within 10 %|Non-2xx or errors (old / new)`;
    const asked = searches.cursors.map((c) => c.asked).join(" and ");
    const twice = searches.cursors.some((c) => c.wrapped)
      ? "more than the list holds: some were asked twice, and that rate flatters"
      : "none twice";
    const markdown = `${table(heads, rows)}\n\nSearches asked (old and new): ${asked}, ${twice}.\n`;
    const run = `${base.commit} (${settings.ref}) beside ${head}, both built and on the demo catalogue, each on its own data directory; autocannon ${settings.connections} connections, ${settings.rounds} rounds of ${settings.duration} s per page and server, in turns.`;
    write("compare", "Side by side with another build", run, markdown, {
      baseline: base.commit,
      settings,
      pages: json,
    });
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
  }
}

/** One page on every server, `rounds` times, the order reversed each round. */
async function inTurns(servers: { server: Server }[], page: Page, settings: Settings) {
  const results: tools.LoadResult[][] = servers.map(() => []);
  const options = servers.map(() => page.options());
  for (let round = 0; round < settings.rounds; round++) {
    const order = servers.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) {
      const target = { url: `${servers[i].server.base}${page.path.replace(/\?…$/, "")}` };
      const load = { ...target, ...options[i], duration: settings.duration };
      results[i].push(await tools.load({ ...load, connections: settings.connections }));
    }
  }
  return results;
}

/** `compare [old] [new]` from run.ts's arguments (new: this tree when not given). */
export const compareMode = (refs: string[], duration: number, connections: number) =>
  compare({
    ref: refs[0] ?? DEFAULT_BASELINE,
    newRef: refs[1],
    duration,
    connections,
    rounds: tools.envNumber("BENCH_COMPARE_ROUNDS", 4),
  });
