// npm run bench:memory: the server's memory (RSS and V8 heap) at idle and after 1,000 requests, on
// PostgreSQL and on the embedded database (PGlite): the command `npm start` runs, the same file
// without its V8 flag, and the TypeScript entry under tsx it replaced. Prints a table and writes
// bench/results/memory.json and memory.md. BENCH_MEMORY_REQUESTS, BENCH_DATABASE_URL,
// BENCH_MEMORY_RUNNERS (start,compiled,tsx), BENCH_MEMORY_DATABASES (PostgreSQL,PGlite) and
// BENCH_NODE_ARGS (extra node flags, for experiments) adjust it.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TMP = path.join(ROOT, "bench/tmp/memory");
const RESULTS = path.join(ROOT, "bench/results");
const PORT = Number(process.env.BENCH_PORT ?? 4421);
const REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 1000);
const CONCURRENCY = 10;
const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";
const RUNNERS = (process.env.BENCH_MEMORY_RUNNERS ?? "start,compiled,tsx").split(",");
const DATABASES = (process.env.BENCH_MEMORY_DATABASES ?? "PostgreSQL,PGlite").split(",");

type Figures = { rssMb: number; heapUsedMb: number; heapTotalMb: number; externalMb: number };
type Row = {
  runner: string;
  database: string;
  idle: Figures;
  afterRequests: Figures;
  requests: number;
  non2xx: number;
};

/** The node arguments of `npm start`, read from package.json so that the bench follows it. */
function npmStartArgs(): string[] {
  const scripts = (
    JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const words = scripts.start.split(/\s+/).filter((w) => !/^[A-Z_]+=/.test(w));
  if (words[0] !== "node") throw new Error(`npm start does not run node: ${scripts.start}`);
  return words.slice(1);
}

const RUNNERS_ARGS: Record<string, { args: string[]; label: string }> = {
  start: { args: npmStartArgs(), label: `\`node ${npmStartArgs().join(" ")}\` (npm start)` },
  compiled: { args: ["build/server/main.js"], label: "`node build/server/main.js`, no flag" },
  tsx: {
    args: ["--import", "tsx", "server/main.ts"],
    label: "`node --import tsx server/main.ts` (before)",
  },
};

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer(runner: string, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
      "--import",
      "./scripts/bench/memory-probe.mjs",
      ...RUNNERS_ARGS[runner].args,
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production",
        PORT: String(PORT),
        HOST: "127.0.0.1",
        SITE_URL: `http://127.0.0.1:${PORT}`,
        ADMIN_EMAIL: "admin@example.fr",
        ADMIN_PASSWORD: "bench password 123",
        LOG_LEVEL: "warn",
        ...env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, stderr: () => stderr };
}

async function waitHealthy(child: ChildProcess, stderr: () => string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${stderr()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/healthz`)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${stderr()}`);
    await sleep(200);
  }
}

/** Asks the probe for the figures and reads its answer from stderr. */
async function measure(child: ChildProcess, stderr: () => string): Promise<Figures> {
  const seen = stderr().split("MEMORY_PROBE ").length;
  child.kill("SIGUSR2");
  for (let i = 0; i < 200; i++) {
    const parts = stderr().split("MEMORY_PROBE ");
    if (parts.length > seen) {
      const m = JSON.parse(parts[parts.length - 1].split("\n")[0]) as Record<string, number>;
      return {
        rssMb: mb(m.rss),
        heapUsedMb: mb(m.heapUsed),
        heapTotalMb: mb(m.heapTotal),
        externalMb: mb(m.external),
      };
    }
    await sleep(25);
  }
  throw new Error("no answer from the memory probe");
}

/** The public pages a visitor walks through, offer pages taken from the sitemap. */
async function pagePaths(): Promise<string[]> {
  const xml = await (await fetch(`http://127.0.0.1:${PORT}/sitemap.xml`)).text();
  const offers = [...xml.matchAll(/<loc>[^<]*?(\/offers\/[^<]+)<\/loc>/g)].map((m) => m[1]);
  return [
    "/",
    "/offers",
    "/offers?type=dedicated",
    "/offers?q=xeon",
    "/offers?min=50&max=300",
    "/offers?engagement=no",
    "/contact",
    "/nowhere",
    ...offers,
  ];
}

async function sendRequests(total: number): Promise<{ requests: number; non2xx: number }> {
  const paths = await pagePaths();
  let next = 0;
  let non2xx = 0;
  const worker = async () => {
    for (let n = next++; n < total; n = next++) {
      // One request in ten is a query no one asked before (a page the cache has not seen).
      const base = paths[n % paths.length];
      const url = n % 10 === 9 ? `/offers?q=${n}` : base;
      const res = await fetch(`http://127.0.0.1:${PORT}${url}`);
      await res.arrayBuffer();
      if (res.status >= 300 && url !== "/nowhere") non2xx++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { requests: total, non2xx };
}

async function run(runner: string, database: "PostgreSQL" | "PGlite"): Promise<Row> {
  let env: Record<string, string>;
  let cleanup = async () => {};
  if (database === "PostgreSQL") {
    const name = `bench_memory_${process.pid}_${runner}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString() };
    cleanup = async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  } else {
    const dataDir = path.join(TMP, `data-${runner}`);
    rmSync(dataDir, { recursive: true, force: true });
    env = { DATA_DIR: dataDir, DATABASE_URL: "" };
  }
  const { child, stderr } = startServer(runner, env);
  try {
    await waitHealthy(child, stderr);
    await sleep(3_000); // let start-up garbage be collected on its own schedule
    const idle = await measure(child, stderr);
    const { requests, non2xx } = await sendRequests(REQUESTS);
    await sleep(3_000);
    const afterRequests = await measure(child, stderr);
    return { runner, database, idle, afterRequests, requests, non2xx };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await cleanup();
  }
}

function markdown(rows: Row[], node: string): string {
  const cell = (f: Figures) => `${f.rssMb} MB (heap ${f.heapUsedMb}/${f.heapTotalMb} MB)`;
  return [
    "# Server memory",
    "",
    `Node ${node}; demo catalogue; ${REQUESTS} requests at ${CONCURRENCY} connections over the ` +
      "public pages (one in ten a new listing search). RSS (heap used/total).",
    "",
    "| Entry | Database | Idle | After the requests |",
    "| ----- | -------- | ---- | ------------------ |",
    ...rows.map(
      (r) =>
        `| ${RUNNERS_ARGS[r.runner].label} | ${r.database} | ${cell(r.idle)} | ${cell(r.afterRequests)} |`,
    ),
    "",
  ].join("\n");
}

async function main() {
  if (!existsSync(path.join(ROOT, "build/server/main.js"))) {
    throw new Error("run npm run build first");
  }
  mkdirSync(TMP, { recursive: true });
  mkdirSync(RESULTS, { recursive: true });
  const rows: Row[] = [];
  for (const runner of RUNNERS) {
    for (const database of ["PostgreSQL", "PGlite"] as const) {
      if (!DATABASES.includes(database)) continue;
      console.log(`${runner}, ${database}: starting`);
      const row = await run(runner, database);
      console.log(
        `${runner}, ${database}: idle RSS ${row.idle.rssMb} MB (heap ${row.idle.heapUsedMb} MB), ` +
          `after ${row.requests} requests ${row.afterRequests.rssMb} MB (heap ${row.afterRequests.heapUsedMb} MB), ${row.non2xx} unexpected statuses`,
      );
      rows.push(row);
    }
  }
  const report = markdown(rows, process.versions.node);
  console.log(`\n${report}`);
  writeFileSync(
    path.join(RESULTS, "memory.json"),
    JSON.stringify({ date: new Date().toISOString(), requests: REQUESTS, rows }, null, 2) + "\n",
  );
  writeFileSync(path.join(RESULTS, "memory.md"), report);
  rmSync(TMP, { recursive: true, force: true });
}

await main();
