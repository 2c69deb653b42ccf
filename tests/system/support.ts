import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

/**
 * Helpers for the system tests: the built server in real processes (`NODE_ENV=production`), on a
 * fresh embedded directory or a fresh database of the PostgreSQL server of TEST_DATABASE_URL.
 */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const ADMIN_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";

if (!existsSync(path.join(ROOT, "build/server/main.js"))) {
  throw new Error("The system tests run the built server: run `npm run build` first.");
}

let reachable: Promise<boolean> | undefined;

/**
 * Whether the PostgreSQL server answers. In CI an unreachable server fails the run (the PostgreSQL
 * tests must never be skipped there); locally they are skipped with a warning.
 */
export function postgresAvailable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (error) {
      const where = ADMIN_URL.replace(/\/\/[^@]*@/, "//...@");
      if (process.env.CI) {
        throw new Error(`PostgreSQL is not reachable at ${where} (CI requires it)`, {
          cause: error,
        });
      }
      console.warn(
        `WARNING: PostgreSQL not reachable at ${where}; PostgreSQL system tests skipped.`,
      );
      return false;
    }
  })();
  return reachable;
}

export type TestDatabase = { url: string; name: string; drop(): Promise<void> };

export async function createPostgresDatabase(prefix = "sys"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Runs fn with a client connected to url. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function tempDir(label: string): string {
  const dir = path.join(
    ROOT,
    "test-results",
    "system",
    `${label}-${randomBytes(4).toString("hex")}`,
  );
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function removeDir(dir: string): void {
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}

export type ServerOptions = {
  port: number;
  dataDir?: string;
  databaseUrl?: string;
  env?: Record<string, string>;
};

export class ServerProcess {
  readonly child: ChildProcess;
  readonly base: string;
  output = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(readonly options: ServerOptions) {
    this.base = `http://127.0.0.1:${options.port}`;
    // The compiled entry, as `npm start` runs it: one process, which a SIGKILL hits directly.
    this.child = spawn(process.execPath, ["build/server/main.js"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production",
        PORT: String(options.port),
        HOST: "127.0.0.1",
        SITE_URL: `http://127.0.0.1:${options.port}`,
        TRUST_PROXY: "1",
        LOG_LEVEL: "info",
        ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}),
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
        ...options.env,
      },
    });
    this.child.stdout?.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr?.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) =>
      this.child.on("exit", (code, signal) => resolve({ code, signal })),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Waits until /healthz answers 200; throws with the server's output if it exits or times out. */
  async ready(timeoutMs = 120_000): Promise<this> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) {
        throw new Error(`server on ${this.base} exited before ready:\n${this.output}`);
      }
      try {
        const res = await fetch(`${this.base}/healthz`, { signal: AbortSignal.timeout(2_000) });
        if (res.ok) return this;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`server on ${this.base} not ready after ${timeoutMs} ms:\n${this.output}`);
  }

  /** Sends a signal and waits for the exit. */
  async stop(signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000) {
    if (this.running) this.child.kill(signal);
    return withTimeout(this.exited, timeoutMs, `server ${this.base} did not exit after ${signal}`);
  }

  /** Lines of the server's JSON log with this message. */
  logLines(msg: string): Record<string, unknown>[] {
    return this.output
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return {};
        }
      })
      .filter((l) => l.msg === msg);
  }
}

export function startServer(options: ServerOptions): ServerProcess {
  return new ServerProcess(options);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]);
}

export type ContactFields = {
  name: string;
  email: string;
  message: string;
  phone?: string;
  offer?: string;
};

/**
 * Posts the contact form as a browser without JavaScript would (no Origin header: same-origin check
 * passes), from a distinct client address (X-Forwarded-For, honoured with TRUST_PROXY=1) so that a
 * per-address rate limit does not throttle the load. Returns the HTTP status.
 */
export async function postContact(
  base: string,
  fields: ContactFields,
  clientIp: string,
  timeoutMs = 15_000,
): Promise<number> {
  const res = await fetch(`${base}/contact`, {
    method: "POST",
    headers: {
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": clientIp,
    },
    body: new URLSearchParams({ phone: "", offer: "general", ...fields }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  await res.arrayBuffer();
  return res.status;
}

/** A distinct address in 10.0.0.0/8 for client number n. */
export function clientAddress(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}
