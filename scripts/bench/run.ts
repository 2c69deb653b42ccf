// The benchmarks, one entry (docs/benchmark.md): `tsx scripts/bench/run.ts [mode]`.
//   (none)            public pages against a static ceiling, Lighthouse, memory, indexes, and the
//                     administration at scale on PGlite and PostgreSQL; --scale-only: the latter
//   memory            the server's memory at idle and after 1,000 requests
//   buyer             quote PDFs and Lighthouse on configured offer pages, demo catalogue
//   admin-lighthouse  Lighthouse desktop on the admin pages, a request with its history included
//   load              mixed load with contact posts, then a check that no lead was lost
//   flood             the cached listing for a quiet client, alone and beside a flood from another address
//   uncached          uncached renders (searches as typed, each once) ÷ the cached listing; inline CSS
//   listing           the listing at 10,000 offers from the catalogue's index, on both engines
//   search            the search's precision and recall over buyers' queries, its time at 10,000 offers
//   quote             `Envoyer le devis` posted, then its mail with the PDF at a real SMTP server
//   prices            every public surface of every one of 10,000 offers against the one price rule
//   compare [old] [new]  another commit's build (default 5e5dca2) beside this tree's (or new's)
import { execSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import { step, write } from "./results";
import { CONNECTIONS, DURATION, LIGHTHOUSE_RUNS, TMP } from "./settings";
import * as tools from "./tools";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "scale-only": { type: "boolean", default: false },
    db: { type: "string", default: "pglite" },
    duration: { type: "string", default: "60" },
    connections: { type: "string", default: "100" },
  },
});
const [mode = "all", ...paths] = positionals;

/** Issue 39: one price per offer on every surface, at 10,000 offers. */
async function prices() {
  const { pricesAtScale } = await import("./prices");
  const { markdown, json } = await pricesAtScale(TMP, step);
  const run =
    "The bench's catalogue; each surface read over HTTP and parsed, compared with the rule.";
  write("prices", "One price per offer at scale", run, markdown, json);
  if (json.mismatches.length) process.exitCode = 1;
}

// Each mode loaded when run: one mode's imports (the app's modules, for some) never stop another.
const modes = {
  all: async () => (await import("./full")).bench(args["scale-only"]),
  memory: async () => (await import("./memory")).memory(),
  buyer: async () => (await import("./buyer")).buyer(),
  "admin-lighthouse": async () => (await import("./admin-lighthouse")).adminLighthouse(paths),
  load: async () => (await import("./load")).loadTest(args),
  flood: async () => (await import("./flood")).flood(),
  uncached: async () =>
    (await import("./uncached")).uncached({
      duration: DURATION,
      connections: CONNECTIONS,
      lighthouseRuns: LIGHTHOUSE_RUNS,
    }),
  listing: async () => (await import("./listing")).listingAtScale(),
  search: async () => (await import("./search")).searchBench(),
  quote: async () => (await import("./buyer")).quote(),
  prices,
  compare: async () => (await import("./compare")).compareMode(paths, DURATION, CONNECTIONS),
};
if (!(mode in modes)) throw new Error(`unknown mode ${mode}: ${Object.keys(modes).join(", ")}`);
mkdirSync(tools.RESULTS, { recursive: true });
const builtElsewhere = mode === "compare" && paths.length > 1; // both sides in worktrees
const needsBuild = !["load", "listing", "search"].includes(mode) && !builtElsewhere;
if (needsBuild && process.env.BENCH_BUILD !== "0") {
  step("building (npm run build)");
  execSync("npm run build", { cwd: tools.ROOT, stdio: "pipe" });
}
await modes[mode as keyof typeof modes]();
