// `flood` (issue 28): the cached listing for a quiet client, alone and beside a flood.
import { Agent } from "node:http";
import { FLOOD_ADDRESS, floodInChild, getFrom } from "../../tests/system/harness/flood";
import * as report from "./report";
import { step, write } from "./results";
import * as tools from "./tools";

/**
 * Issue 28: the cached listing's latency for a quiet client (127.0.0.1, one request at a time),
 * alone, then while 20 connections from FLOOD_ADDRESS (a process of its own) ask quote PDFs or
 * searches, a new question each time; default limits. Target: p95 within 5× the quiet one.
 */
export async function flood() {
  const ms = tools.envNumber("BENCH_FLOOD_SECONDS", 10) * 1000;
  const limits = { PUBLIC_RENDER_RATE_PER_MINUTE: undefined, QUOTE_PDF_RATE_PER_MINUTE: undefined };
  const server = await tools.launch({ SEED_DEMO: "true", ...limits });
  const [agent, rows] = [new Agent({ keepAlive: true }), [] as unknown[][]];
  let quietP95 = 0;
  const quiet = async (name: string, flooding?: Promise<{ statuses?: object }>) => {
    const times: number[] = [];
    for (const end = Date.now() + ms; Date.now() < end;) {
      const start = performance.now();
      const { status } = await getFrom(server.base, "/offers", { agent });
      if (status !== 200) throw new Error(`the cached listing answered ${status}`);
      times.push(performance.now() - start);
    }
    const [p50, p95] = tools.quantiles(times, [0.5, 0.95]);
    quietP95 ||= p95;
    const ratio = `${(p95 / quietP95).toFixed(1)}×`;
    const statuses = JSON.stringify((await flooding)?.statuses ?? "—");
    rows.push([name, times.length, p50.toFixed(1), p95.toFixed(1), ratio, statuses]);
  };
  try {
    for (let i = 0; i < 5; i++) await getFrom(server.base, "/offers", { agent }); // stored
    await quiet("none: the quiet client alone");
    const pdf = "/offers/epyc-performance-64/devis.pdf?o0={n}";
    const floods = { "quote PDFs": pdf, searches: "/offers?q=flood{n}" };
    for (const [name, template] of Object.entries(floods)) {
      step(`${ms / 1000} s of a flood of ${name} from ${FLOOD_ADDRESS}`);
      const options = { base: server.base, template, connections: 20, localAddress: FLOOD_ADDRESS };
      await quiet(name, floodInChild({ ...options, maxRequests: 1e9, maxMs: ms }));
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
  const heads = "Flood|Requests|p50 ms|p95 ms|p95 / quiet p95 (≤ 5×)|Flood's answers by status";
  const run = `Demo catalogue, default limits; ${ms / 1000} s per phase, the flood started with it.`;
  write("flood", "A flood from one address", run, `${report.table(heads, rows)}\n`, { rows });
}
