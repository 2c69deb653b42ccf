// `search` (issue 42): the catalogue search's precision and recall over what buyers type
// (search-queries.ts, the demo catalogue), and the time of a distinct uncached search at 10,000
// offers beside the search it replaced (a lower-cased substring of title, reference, cpu and ram).
import { facetCounts } from "../../app/lib/offer-facets";
import { filterMatcher, listFromIndex, type CatalogueIndex } from "../../app/lib/catalogue-index";
import {
  loadCatalogueIndex,
  type OfferCardData,
} from "../../app/features/offers/offer-listing.server";
import { seedIfEmpty } from "../../app/features/setup/seed.server";
import { openPglite, openPostgres, type DatabaseHandle } from "../../app/platform/db.server";
import { generateCatalogue } from "./data";
import * as report from "./report";
import { step, write } from "./results";
import * as tools from "./tools";
import { SEARCH_QUERIES } from "./search-queries";
import { SEARCH_TERMS } from "./searches";

type Index = CatalogueIndex<OfferCardData>;

/** The search before issue 42, as the index ran it: the lower-cased fields contain the term. */
function substringSearch(index: Index, query: string) {
  const needle = query.toLowerCase();
  const pool = index.newest.filter((offer) =>
    [offer.card.title, offer.card.reference, offer.card.cpu, offer.card.ram]
      .join("\u001f")
      .toLowerCase()
      .includes(needle),
  );
  const counts = facetCounts(pool, {});
  const matches = filterMatcher({});
  return { offers: pool.filter(matches).slice(0, 24), total: counts.total };
}

const wordSearch = (index: Index, query: string) =>
  listFromIndex(index, { searchTerm: query }, { query, page: 1, pageSize: 24, sort: "newest" });

function quality(index: Index, find: (index: Index, q: string) => string[]) {
  const rows = SEARCH_QUERIES.map(({ q, kind, expected }) => {
    const found = find(index, q);
    const hits = found.filter((ref) => expected.includes(ref)).length;
    return {
      q,
      kind,
      found: found.length,
      precision: found.length ? hits / found.length : expected.length ? 0 : 1,
      recall: expected.length ? hits / expected.length : 1,
    };
  });
  const mean = (key: "precision" | "recall") => rows.reduce((s, r) => s + r[key], 0) / rows.length;
  return { rows, precision: mean("precision"), recall: mean("recall") };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

export async function searchBench() {
  step("demo catalogue: precision and recall");
  const demo = await openPglite();
  let demoIndex: Index;
  try {
    await demo.migrate(demo.db);
    await seedIfEmpty(demo.db);
    demoIndex = await loadCatalogueIndex(demo.db);
  } finally {
    await demo.close();
  }
  const everything = (index: Index, q: string) =>
    listFromIndex(index, {}, { query: q, page: 1, pageSize: 1000, sort: "newest" }).offers.map(
      (o) => o.reference,
    );
  const before = (index: Index, q: string) => {
    const needle = q.toLowerCase();
    return index.newest
      .filter((o) =>
        [o.card.title, o.card.reference, o.card.cpu, o.card.ram]
          .join("\u001f")
          .toLowerCase()
          .includes(needle),
      )
      .map((o) => o.card.reference);
  };
  const now = quality(demoIndex, everything);
  const then = quality(demoIndex, before);

  // Both engines: the index is read from each (SQL), then searched in memory.
  const engines: {
    engine: string;
    open: () => Promise<DatabaseHandle>;
    drop?: () => Promise<void>;
  }[] = [{ engine: "PGlite", open: () => openPglite() }];
  const pg = await tools.scratchPostgres("bench_search");
  if (typeof pg !== "string") {
    engines.push({ engine: pg.engine, open: () => openPostgres(pg.url), drop: pg.drop });
  } else step(`PostgreSQL skipped: ${pg}`);
  const terms = SEARCH_TERMS.filter(Boolean);
  const timed: {
    engine: string;
    offers: number;
    buildMs: number;
    words: number;
    substring: number;
  }[] = [];
  for (const { engine, open, drop } of engines) {
    step(`${engine}, 10,000 offers: the index, then distinct uncached searches`);
    const handle = await open();
    let index: Index;
    let offers: number;
    let buildMs: number;
    try {
      await handle.withStartupLock((db) => handle.migrate(db));
      offers = await generateCatalogue(handle.db, 10_000);
      const start = performance.now();
      index = await loadCatalogueIndex(handle.db);
      buildMs = performance.now() - start;
    } finally {
      await handle.close();
      await drop?.();
    }
    // Distinct terms as typed, each once per round; both searches in turns.
    const times = { words: [] as number[], substring: [] as number[] };
    for (let round = 0; round < 5; round++)
      for (const term of terms) {
        for (const [name, run] of [
          ["words", wordSearch],
          ["substring", substringSearch],
        ] as const) {
          const begin = performance.now();
          run(index, term);
          times[name].push(performance.now() - begin);
        }
      }
    timed.push({
      engine,
      offers,
      buildMs,
      words: median(times.words),
      substring: median(times.substring),
    });
  }

  const percent = (v: number) => `${(v * 100).toFixed(0)} %`;
  const misses = now.rows
    .filter((r) => r.precision < 1 || r.recall < 1)
    .map((r) => [r.q, r.kind, String(r.found), percent(r.precision), percent(r.recall)]);
  const markdown = [
    report.table("Search|Queries|Precision|Recall", [
      [
        "issue 42 (words, synonyms, typos)",
        String(now.rows.length),
        percent(now.precision),
        percent(now.recall),
      ],
      [
        "before (substring)",
        String(then.rows.length),
        percent(then.precision),
        percent(then.recall),
      ],
    ]),
    "",
    "Queries not answered exactly (issue 42's search):",
    "",
    report.table("Query|Kind|Found|Precision|Recall", misses),
    "",
    report.table(
      "Engine|Offers|Index read and built, ms|Distinct search, issue 42, median ms|Before (substring), median ms|÷ before",
      timed.map((t) => [
        t.engine,
        String(t.offers),
        t.buildMs.toFixed(0),
        t.words.toFixed(2),
        t.substring.toFixed(2),
        (t.words / t.substring).toFixed(2),
      ]),
    ),
  ].join("\n");
  const run = `${SEARCH_QUERIES.length} queries over the demo catalogue (scripts/bench/search-queries.ts, the offers each buyer means); ${terms.length} distinct terms × 5 rounds at 10,000 offers on each engine (the index read from it, then searched in memory), each search a first page with its total and counts, in process.`;
  write("search", "Catalogue search: precision, recall, time", run, markdown, {
    precision: now.precision,
    recall: now.recall,
    before: { precision: then.precision, recall: then.recall },
    engines: timed,
    rows: now.rows,
  });
}
