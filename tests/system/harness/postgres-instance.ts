import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findFreePort } from "./ports";

/** Debian's PostgreSQL binaries (newest version), or undefined when none is installed. */
export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest ? path.join(root, newest, "bin") : undefined;
}

/**
 * Whether the tests of `what` can make a throwaway PostgreSQL server: CI must have the binaries
 * (scripts/system-deps.sh); elsewhere, without them, those tests are skipped with a warning.
 */
export function postgresBinariesFor(what: string): boolean {
  const available = Boolean(postgresBinDir());
  if (!available && process.env.CI)
    throw new Error("CI needs PostgreSQL binaries (scripts/system-deps.sh)");
  if (!available) console.warn(`WARNING: PostgreSQL binaries not found; ${what} skipped.`);
  return available;
}

export type PostgresInstance = {
  url: string;
  port: number;
  start(): void;
  stop(): void;
  /** The same, without blocking this process (a load keeps running meanwhile). */
  startAsync(): Promise<void>;
  stopAsync(): Promise<void>;
  destroy(): void;
};

/**
 * A throwaway PostgreSQL server of our own (never the shared cluster): initdb into a temporary
 * directory, on a free port in 4520-4759, unix socket in that directory, trust authentication
 * on loopback. Run as the postgres user when we are root (PostgreSQL refuses to run as root).
 */
export async function createPostgresInstance(): Promise<PostgresInstance> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL binaries not found under /usr/lib/postgresql");
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "serveurpro-pg-"));
  const dataDir = path.join(dir, "data");
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const command = (name: string, args: string[]): [string, string[]] =>
    asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, name), ...args]]
      : [path.join(bin, name), args];
  const run = (name: string, args: string[]) =>
    execFileSync(...command(name, args), {
      stdio: ["ignore", "pipe", "pipe"],
      cwd: dir,
      timeout: 60_000,
    });
  const runAsync = (name: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      execFile(...command(name, args), { cwd: dir, timeout: 60_000 }, (error) =>
        error ? reject(error) : resolve(),
      );
    });

  run("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const port = await findFreePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c shared_buffers=16MB",
    "-c max_connections=40",
  ].join(" ");
  const startArgs = [
    "-D",
    dataDir,
    "-o",
    options,
    "-l",
    path.join(dir, "server.log"),
    "-w",
    "-t",
    "60",
    "start",
  ];
  const stopArgs = ["-D", dataDir, "-m", "fast", "-w", "-t", "60", "stop"];
  const instance: PostgresInstance = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      run("pg_ctl", startArgs);
    },
    stop() {
      run("pg_ctl", stopArgs);
    },
    startAsync: () => runAsync("pg_ctl", startArgs),
    stopAsync: () => runAsync("pg_ctl", stopArgs),
    destroy() {
      try {
        run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "-t", "30", "stop"]);
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  instance.start();
  return instance;
}
