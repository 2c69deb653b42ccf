import path from "node:path";
import { rmSync } from "node:fs";
import {
  expectedPrice,
  mismatches,
  preparePriceCatalogue,
  walkSurfaces,
} from "../../tests/system/harness/price-walk";
import { BENCH_OFFERS } from "./data";
import * as report from "./report";
import * as tools from "./tools";

// Issue 39 at scale: the walk of tests/system/one-price.test.ts over the bench's 10,000 offers
// (every public surface of every active offer against the rule), on the built server.

export async function pricesAtScale(dir: string, step: (message: string) => void) {
  rmSync(dir, { recursive: true, force: true });
  step(`PGlite: ${BENCH_OFFERS} offers`);
  const { rows, scale } = await preparePriceCatalogue(path.join(dir, "prices"), BENCH_OFFERS);
  const expected = rows.map((row) => expectedPrice(row, scale));
  const server = await tools.launch({ DATA_DIR: path.join(dir, "prices"), SEED_DEMO: "false" });
  try {
    step(`walking ${expected.length} active offers`);
    const started = Date.now();
    const get = (url: string) => fetch(`${server.base}${url}`, { redirect: "manual" });
    const { sightings } = await walkSurfaces(get, expected);
    const seconds = (Date.now() - started) / 1000;
    const found = mismatches(expected, sightings);
    for (const line of found.slice(0, 20)) console.log(`mismatch: ${line}`);
    const scaled = rows.filter((r) => r.type === "loa" && r.financedAmount !== null).length;
    const surfaces = [...sightings].map(([surface, seen]) => [surface, seen.size]);
    const amounts = surfaces.reduce((n, [, size]) => n + Number(size), 0);
    const markdown = `${report.table("Surface|Offers read", surfaces)}\n\n${expected.length} active offers (${scaled} priced by the scale), ${amounts} amounts read in ${seconds.toFixed(0)} s: **${found.length} mismatches**.\n`;
    return {
      markdown,
      json: { offers: expected.length, scaled, amounts, seconds, mismatches: found },
    };
  } finally {
    await server.stop();
  }
}
