// `load` (`npm run loadtest`): a mixed load with contact posts, then no lead lost.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { like } from "drizzle-orm";
import { openPglite, openPostgres, type DatabaseHandle } from "../../app/platform/db.server";
import { contactRequests } from "../../app/platform/schema.server";
import { clientAddress } from "../../tests/system/support";
import { text } from "./demo";
import * as report from "./report";
import * as tools from "./tools";
import { FORM } from "./settings";

/**
 * About 90 % page views and 10 % contact posts, each from its own address (TRUST_PROXY, the rate
 * limit raised), then the posts acknowledged (303) are looked up in the database.
 */
export async function loadTest(args: { db: string; duration: string; connections: string }) {
  const duration = Number(args.duration);
  const connections = Number(args.connections);
  setTimeout(
    () => (console.error("load: watchdog expired"), process.exit(2)),
    (duration + 180) * 1000,
  ).unref();
  const pg = args.db === "postgres" ? await tools.scratchPostgres("loadtest") : undefined;
  if (typeof pg === "string") throw new Error(`PostgreSQL: ${pg}`);
  const dataDir = pg ? undefined : mkdtempSync(path.join(tmpdir(), "serveurpro-load-"));
  const open = (): Promise<DatabaseHandle> => (pg ? openPostgres(pg.url) : openPglite(dataDir!));
  const limits = { TRUST_PROXY: "loopback", CONTACT_RATE_LIMIT: "1000000", LOG_LEVEL: "warn" };
  const server = await tools.launch({ DATA_DIR: dataDir, DATABASE_URL: pg?.url, ...limits });
  try {
    const base = server.base;
    const links = (await text(`${base}/offers`)).matchAll(/href="\/offers\/([a-z0-9-]+)"/g);
    const slugs = [...new Set([...links].map((m) => m[1]))];
    const options = (await text(`${base}/contact`)).matchAll(/<option value="(\d+)"/g);
    const offerIds = [...options].map((m) => m[1]);
    if (!slugs.length || !offerIds.length) throw new Error("no demo offers found");
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
    const acknowledged = new Set<string>();
    let [sequence, answered] = [0, 0];
    const view = (pathOf: () => string) => ({
      headers: { "accept-encoding": "gzip" },
      setupRequest: (request: object) => ({ ...request, path: pathOf() }),
    });
    // Per connection, in a loop: nine page views, then one contact post.
    const requests = [
      view(() => "/"),
      view(() => "/offers"),
      view(() => pick(["/offers?type=loa", "/offers?type=dedicated&engagement=yes"])),
      view(() => pick(["/offers?q=epyc", "/offers?q=ddr5", "/offers?q=xeon&type=dedicated"])),
      view(() => pick(["/offers?min=100&max=500", "/offers?max=100", "/offers?min=500"])),
      view(() => `/offers/${pick(slugs)}`),
      view(() => `/offers/${pick(slugs)}`),
      view(() => "/contact"),
      view(() => `/contact?offer=${pick(offerIds)}`),
      {
        method: "POST",
        path: "/contact",
        setupRequest: (request: object, context: { name?: string }) => {
          const n = ++sequence;
          context.name = `Charge ${n}`;
          const body = new URLSearchParams({ name: context.name, email: `charge${n}@example.fr` });
          body.set("phone", "");
          body.set("offer", n % 2 ? pick(offerIds) : "");
          body.set("message", `Demande de devis numéro ${n}.\nMerci.`);
          const headers = { "content-type": FORM, "x-forwarded-for": clientAddress(n) };
          return { ...request, body: body.toString(), headers };
        },
        onResponse: (status: number, _body: string, context: { name?: string }) => {
          answered++;
          if (status === 303) acknowledged.add(context.name!); // stored: post/redirect/get
        },
      },
    ];
    console.log(`load: ${args.db}, ${connections} connections for ${duration} s on ${base} ...`);
    const result = await tools.load({
      url: base,
      connections,
      duration,
      timeout: 30,
      requests,
    } as never);
    await server.stop();
    const handle = await open();
    const rows = await handle.db
      .select({ name: contactRequests.name })
      .from(contactRequests)
      .where(like(contactRequests.name, "Charge %"))
      .finally(() => handle.close());
    const stored = new Set(rows.map((r) => r.name));
    const missing = [...acknowledged].filter((name) => !stored.has(name)).length;
    const errorLines = server.output.split("\n").filter((l) => l.includes('"level":"error"'));
    const label = `${pg ? "PostgreSQL" : "embedded PGlite"}, ${connections} connections`;
    const contacts = { answered, acknowledged: acknowledged.size, stored: stored.size, missing };
    console.log(report.loadSummary(label, result, contacts, errorLines.length));
    const ok =
      result.statuses["5xx"] === 0 && result.errors === 0 && missing === 0 && acknowledged.size > 0;
    console.log(ok ? "  verdict:         OK, nothing lost" : "  verdict:         FAILED");
    process.exitCode = ok ? 0 : 1;
  } finally {
    await server.stop();
    await pg?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
