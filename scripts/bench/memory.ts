// `memory`: the built server's memory at idle and after a walk of requests, both engines.
import type { ServerProcess } from "../../tests/system/harness/server-process";
import { ADMIN_ENV, text } from "./demo";
import * as report from "./report";
import type { MemoryFigures, MemoryRow } from "./report";
import { write } from "./results";
import * as tools from "./tools";

export async function memory() {
  const requests = tools.envNumber("BENCH_MEMORY_REQUESTS", 1000);
  const rows: MemoryRow[] = [];
  const entries = {
    [`\`node ${tools.START_FLAGS.join(" ")} build/server/main.js\` (npm start)`]: tools.START_FLAGS,
    "`node build/server/main.js`, no flag": [],
  };
  for (const [entry, flags] of Object.entries(entries)) {
    for (const database of ["PostgreSQL", "PGlite"]) {
      const pg =
        database === "PostgreSQL" ? await tools.scratchPostgres("bench_memory") : undefined;
      if (typeof pg === "string") continue;
      const env = { DATABASE_URL: pg?.url, LOG_LEVEL: "warn", ...ADMIN_ENV };
      const probeFlags = ["--import", "./scripts/bench/memory-probe.mjs"];
      const server = await tools.launch(env, [...flags, ...probeFlags]);
      try {
        await tools.sleep(3000); // start-up garbage is collected on its own schedule
        const idle = await probe(server);
        const sitemap = await text(`${server.base}/sitemap.xml`);
        const offers = [...sitemap.matchAll(/<loc>[^<]*?(\/offers\/[^<]+)<\/loc>/g)];
        const pages = `/ /offers /offers?type=dedicated /offers?q=xeon /offers?min=50&max=300
          /offers?engagement=no /contact /nowhere`
          .split(/\s+/)
          .concat(offers.map((m) => m[1]));
        let n = 0;
        let unexpected = 0;
        const walk = {
          // One request in ten is a search no one asked before (a page the cache has not seen).
          setupRequest: (request: object, context: { path?: string }) => {
            context.path = n % 10 === 9 ? `/offers?q=${n}` : pages[n % pages.length];
            n++;
            return { ...request, path: context.path };
          },
          onResponse: (status: number, _body: string, context: { path?: string }) => {
            if (status >= 300 && context.path !== "/nowhere") unexpected++;
          },
        };
        const walked = { url: server.base, connections: 10, amount: requests, requests: [walk] };
        const result = await tools.load(walked as never);
        await tools.sleep(3000);
        const after = await probe(server);
        const load = { ...result, non2xx: unexpected };
        rows.push({ entry, database, idle, afterRequests: after, load });
        console.log(
          `${entry}, ${database}: idle RSS ${idle.rssMb} MB, after ${requests} requests ${after.rssMb} MB, ${unexpected} unexpected statuses`,
        );
      } finally {
        await server.stop();
        await pg?.drop();
      }
    }
  }
  write(
    "memory",
    "Server memory",
    "RSS from the process, the V8 heap from a probe preloaded for the bench only.",
    report.memoryMarkdown(rows, requests),
    { requests, rows },
  );
}

/** Asks the preloaded probe (SIGUSR2) for the server's memory and reads its line. */
async function probe(server: ServerProcess): Promise<MemoryFigures> {
  const seen = server.output.split("MEMORY_PROBE ").length;
  server.child.kill("SIGUSR2");
  for (let i = 0; i < 200; i++) {
    const parts = server.output.split("MEMORY_PROBE ");
    if (parts.length > seen) {
      const m = JSON.parse(parts[parts.length - 1].split("\n")[0]) as Record<string, number>;
      const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
      const [rssMb, heapUsedMb, heapTotalMb] = [mb(m.rss), mb(m.heapUsed), mb(m.heapTotal)];
      return { rssMb, heapUsedMb, heapTotalMb, externalMb: mb(m.external) };
    }
    await tools.sleep(25);
  }
  throw new Error("no answer from the memory probe");
}
