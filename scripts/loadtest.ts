// Mixed load against the built server on loopback, then a check that no lead was lost.
//
//   npm run build && npm run loadtest                    # embedded database (PGlite), fresh data dir
//   npm run loadtest -- --db postgres                    # a fresh database on LOADTEST_DATABASE_URL
//   npm run loadtest -- --duration 10 --connections 20   # shorter
//
// About 90 % page views (home, listing with filters, offer pages, contact page) and 10 % contact
// submissions, each from its own simulated address (TRUST_PROXY=1, X-Forwarded-For), with the
// contact rate limit raised for the run. Prints a summary; exits 1 on any 5xx, connection error,
// or contact acknowledged as sent but missing from the database.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { like } from "drizzle-orm";
import pg from "pg";
import { openPglite, openPostgres, type DatabaseHandle } from "../app/server/db.server";
import { contactRequests } from "../app/server/schema.server";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "pglite" },
    duration: { type: "string", default: "60" },
    connections: { type: "string", default: "100" },
    port: { type: "string", default: "4580" },
  },
});
const kind = args.db === "postgres" ? "postgres" : "pglite";
const duration = Number(args.duration);
const connections = Number(args.connections);
const port = Number(args.port);
if (port < 4500 || port > 4599) throw new Error("--port must be in 4500-4599");
const baseUrl = `http://127.0.0.1:${port}`;
const NAME_PREFIX = "Charge ";

// A watchdog: whatever happens, the run ends.
const watchdog = setTimeout(
  () => {
    console.error("loadtest: watchdog expired, stopping");
    process.exit(2);
  },
  (duration + 180) * 1000,
);
watchdog.unref();

async function prepareDatabase(): Promise<{
  env: Record<string, string>;
  open(): Promise<DatabaseHandle>;
  dispose(): Promise<void>;
}> {
  if (kind === "pglite") {
    const dir = mkdtempSync(path.join(tmpdir(), "serveurpro-load-"));
    return {
      env: { DATA_DIR: dir },
      open: () => openPglite(dir),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl =
    process.env.LOADTEST_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    "postgres://postgres:postgres@127.0.0.1:5432/postgres";
  const name = `loadtest_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => openPostgres(url.toString()),
    dispose: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [path.resolve("build/server/main.js")], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      SITE_URL: baseUrl,
      TRUST_PROXY: "1",
      CONTACT_RATE_LIMIT: "1000000",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (c: Buffer) => (errors += c.toString("utf8")));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${errors}`);
    const healthy = await fetch(`${baseUrl}/healthz`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start:\n${errors}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    errorLines: () => errors.split("\n").filter((l) => l.includes('"level":"error"')),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 20_000).unref();
      }),
  };
}

async function main() {
  const database = await prepareDatabase();
  const server = await startServer(database.env);
  let stored = new Set<string>();
  try {
    const listing = await (await fetch(`${baseUrl}/offers`)).text();
    const slugs = [
      ...new Set([...listing.matchAll(/href="\/offers\/([a-z0-9-]+)"/g)].map((m) => m[1])),
    ];
    const contactPage = await (await fetch(`${baseUrl}/contact`)).text();
    const offerIds = [...contactPage.matchAll(/<option value="(\d+)"/g)].map((m) => m[1]);
    if (!slugs.length || !offerIds.length) throw new Error("no demo offers found");
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];

    let sequence = 0;
    const acknowledged = new Set<string>();
    let contactAnswers = 0;
    const gzip = { "accept-encoding": "gzip" };
    const page = (pathOf: () => string) => ({
      method: "GET" as const,
      headers: gzip,
      setupRequest: (request: { path: string }) => ({ ...request, path: pathOf() }),
    });
    // Per connection, in a loop: nine page views, then one contact submission.
    const requests = [
      page(() => "/"),
      page(() => "/offers"),
      page(() => pick(["/offers?type=loa", "/offers?type=dedicated&engagement=yes"])),
      page(() => pick(["/offers?q=epyc", "/offers?q=ddr5", "/offers?q=xeon&type=dedicated"])),
      page(() => pick(["/offers?min=100&max=500", "/offers?max=100", "/offers?min=500"])),
      page(() => `/offers/${pick(slugs)}`),
      page(() => `/offers/${pick(slugs)}`),
      page(() => "/contact"),
      page(() => `/contact?offer=${pick(offerIds)}`),
      {
        method: "POST" as const,
        path: "/contact",
        setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => {
          const n = ++sequence;
          const name = `${NAME_PREFIX}${n}`;
          context.name = name;
          const body = new URLSearchParams({
            name,
            email: `charge${n}@example.fr`,
            phone: "",
            offer: n % 2 ? pick(offerIds) : "",
            message: `Demande de devis numéro ${n}.\nMerci.`,
          }).toString();
          return {
            ...request,
            body,
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            },
          };
        },
        onResponse: (status: number, _body: string, context: Record<string, unknown>) => {
          contactAnswers++;
          // Stored: post/redirect/get to the confirmation page.
          if (status === 303) {
            acknowledged.add(context.name as string);
          }
        },
      },
    ];

    console.log(
      `loadtest: ${kind}, ${connections} connections for ${duration} s against ${baseUrl} ...`,
    );
    const result = await autocannon({
      url: baseUrl,
      connections,
      duration,
      timeout: 30,
      // @types/autocannon types setupRequest's argument loosely; these functions get what they expect.
      requests: requests as never,
    });

    await server.stop();
    const handle = await database.open();
    try {
      const rows = await handle.db
        .select({ name: contactRequests.name })
        .from(contactRequests)
        .where(like(contactRequests.name, `${NAME_PREFIX}%`));
      stored = new Set(rows.map((r) => r.name));
    } finally {
      await handle.close();
    }
    const missing = [...acknowledged].filter((name) => !stored.has(name));
    const total = result["1xx"] + result["2xx"] + result["3xx"] + result["4xx"] + result["5xx"];

    const lines = [
      `Load test — ${kind === "postgres" ? "PostgreSQL" : "embedded PGlite"}, ${connections} connections, ${result.duration} s, loopback`,
      `  requests:        ${total} (${Math.round(total / result.duration)}/s); 2xx ${result["2xx"]}, 3xx ${result["3xx"]}, 4xx ${result["4xx"]}, 5xx ${result["5xx"]}`,
      `  errors:          ${result.errors} connection errors, ${result.timeouts} timeouts`,
      `  latency (ms):    p50 ${result.latency.p50}, p90 ${result.latency.p90}, p99 ${result.latency.p99}, max ${result.latency.max}`,
      `  contacts:        ${contactAnswers} answered, ${acknowledged.size} acknowledged as sent, ${stored.size} stored, ${missing.length} acknowledged but missing`,
      `  server errors:   ${server.errorLines().length} error log lines`,
    ];
    console.log(lines.join("\n"));
    const ok =
      result["5xx"] === 0 && result.errors === 0 && missing.length === 0 && acknowledged.size > 0;
    console.log(ok ? "  verdict:         OK, nothing lost" : "  verdict:         FAILED");
    process.exitCode = ok ? 0 : 1;
  } finally {
    await server.stop();
    await database.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
