import { performance } from "node:perf_hooks";
import { asc, sql } from "drizzle-orm";
import { offerStats } from "../../app/server/offers.server";
import { offers } from "../../app/server/schema.server";
import { startAppServer } from "../../tests/system/harness/app-server";
import { signedInAdmin } from "../../tests/support/admin";
import { BENCH_OFFERS, generateCatalogue } from "./data";

// The offers side of issue 11's targets: every admin offer page at most 200 KB of HTML and
// 5,000 elements with 10,000 offers, and the dashboard's offer counts cheap. Built server,
// real HTTP; PGlite by default, PostgreSQL with TEST_DB=postgres TEST_DATABASE_URL=...
// Usage: npm run build && npx tsx scripts/bench/admin-offers.ts

const RUNS = 7;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const app = await startAppServer({ LOG_LEVEL: "error" });
  try {
    const db = app.database.db;
    const total = await generateCatalogue(db, BENCH_OFFERS);
    const { cookie } = await signedInAdmin(db);
    const [first] = await db
      .select({ id: offers.id })
      .from(offers)
      .orderBy(asc(offers.id))
      .limit(1);
    const pages = [
      "/admin",
      "/admin/offers",
      "/admin/offers?page=150",
      "/admin/offers?q=epyc",
      "/admin/offers?q=xeon&type=loa&status=active",
      "/admin/offers?q=00042",
      `/admin/offers/${first.id}`,
      `/admin/offers/new?from=${first.id}`,
      "/admin/offers/new",
      "/admin/users",
      "/admin/account",
    ];
    const rows: string[] = [];
    // The public filtered listing, uncached (a cookie keeps it out of the page cache): the yardstick.
    const reference = "/offers?q=epyc&type=dedicated";
    for (const path of [reference, ...pages]) {
      const times: number[] = [];
      let html = "";
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        const answer = await fetch(`${app.baseUrl}${path}`, {
          headers: { cookie: path === reference ? "bench=1" : cookie },
          redirect: "manual",
        });
        html = await answer.text();
        times.push(performance.now() - start);
        if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
      }
      const elements = html.match(/<[a-zA-Z][^>]*>/g)?.length ?? 0;
      rows.push(
        `| ${path} | ${(Buffer.byteLength(html) / 1024).toFixed(1)} KB | ${elements} | ${median(times).toFixed(1)} ms |`,
      );
    }
    const statTimes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      await offerStats(db);
      statTimes.push(performance.now() - start);
    }
    // The dashboard's counts, as offerStats() runs them: the plan should be an index-only scan.
    const plan = (await db.execute(
      sql`explain (analyze, buffers) select count(*), count(*) filter (where is_active) from offers`,
    )) as unknown as { rows: Record<string, string>[] };
    const planText = plan.rows.map((r) => Object.values(r)[0]).join("\n");
    console.log(
      `Database: ${process.env.TEST_DB === "postgres" ? "PostgreSQL" : "PGlite"}, ${total} offers\n`,
    );
    console.log("| Page | HTML | Elements | Server time (median of 7) |\n|---|---|---|---|");
    console.log(rows.join("\n"));
    console.log(`\nofferStats(): median ${median(statTimes).toFixed(2)} ms over 20 calls\n`);
    console.log(planText);
  } finally {
    await app.close();
  }
}

await main();
