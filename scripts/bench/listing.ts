// `listing` (issue 31): the listing at scale from the catalogue's index against its SQL.
import { rmSync } from "node:fs";
import path from "node:path";
import { openPglite, openPostgres } from "../../app/platform/db.server";
import { measureListing } from "./measures";
import * as report from "./report";
import { step, write } from "./results";
import * as tools from "./tools";
import { TMP } from "./settings";

/** Issue 31: the listing from the catalogue's index at 10,000 offers, on both engines. */
export async function listingAtScale() {
  rmSync(TMP, { recursive: true, force: true });
  const results: Awaited<ReturnType<typeof measureListing>>[] = [];
  step("PGlite: 10,000 offers, the listing's variants");
  const pglite = await openPglite(path.join(TMP, "listing"));
  try {
    results.push(await measureListing(pglite, "PGlite"));
  } finally {
    await pglite.close();
  }
  const pg = await tools.scratchPostgres("bench_listing");
  if (typeof pg !== "string") {
    step("PostgreSQL: the same");
    const handle = await openPostgres(pg.url);
    try {
      results.push(await measureListing(handle, pg.engine));
    } finally {
      await handle.close();
      await pg.drop();
    }
  }
  const names = Object.keys(results[0].medians);
  const rows = names.map((q) => [q, ...results.map((r) => r.medians[q].toFixed(2))]);
  const heads = `Median ms|${results.map((r) => `${r.engine}: index`).join("|")}`;
  const held = results
    .map((r) => `${r.engine}: ${r.indexed} offers held in ${report.kb(r.heldBytes)} of heap`)
    .join("; ");
  const markdown = `${report.table(heads, rows)}\n\n${held}.\n`;
  const run = `${results[0].offerCount} offers (the demo's and generated ones); each listing as the site answers it (index: the catalogue's index held, the counts beside the filters) and the same page and total from SQL alone (what the API runs); ${results[0].runs} runs in turns, medians.`;
  write("listing", "The listing at scale", run, markdown, { results });
}
