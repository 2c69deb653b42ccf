import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sleep, withTimeout } from "../support";

/** The repository: the built server runs from here, as `npm start` runs it. */
export const ROOT = path.resolve(import.meta.dirname, "../../..");
const MAIN = "build/server/main.js";

export type ServerOptions = {
  port: number;
  /** The embedded database's directory. Without it (and without databaseUrl): a fresh temporary one. */
  dataDir?: string;
  databaseUrl?: string;
  /** Added to (or, when undefined, removed from) the environment below. */
  env?: Record<string, string | undefined>;
  /** Node flags before the entry (the bench limits the young generation). */
  nodeArgs?: string[];
  /** Let the server create its embedded database itself (initdb): the tests of that first start. */
  freshDatabase?: boolean;
  /** Where the built server is (default ROOT): the bench's compare mode runs another commit's. */
  root?: string;
};

/** Where the launcher finds the migrated copy it gives new data directories (data-template.ts). */
export const DATA_TEMPLATE_VARIABLE = "SYSTEM_TEST_DATA_TEMPLATE";

/**
 * A migrated, empty embedded database made once per run (data-template.ts). Copied into an
 * embedded data directory that has none yet, it spares the server initdb and the migrations; the
 * demo data and the first administrator are still the server's own first-start work.
 */
export function copyDataTemplate(dataDir: string): void {
  const template = process.env[DATA_TEMPLATE_VARIABLE];
  if (!template || existsSync(path.join(dataDir, "pgdata", "PG_VERSION"))) return;
  cpSync(path.join(template, "pgdata"), path.join(dataDir, "pgdata"), { recursive: true });
}

/**
 * The environment of a test server: nothing inherited but PATH, HOME and TMPDIR, so that the
 * developer's DATABASE_URL or LOG_LEVEL never leaks in. TRUST_PROXY=loopback (the test, on
 * 127.0.0.1, is the proxy) lets a test pose as many clients through X-Forwarded-For; LOG_LEVEL=info puts every log line in the captured output.
 * TOTP_ENCRYPTION_KEY (a test-only key), which production requires on a public SITE_URL.
 */
export function serverEnv(options: ServerOptions): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    TMPDIR: process.env.TMPDIR ?? "/tmp",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(options.port),
    SITE_URL: `http://127.0.0.1:${options.port}`,
    TRUST_PROXY: "loopback",
    LOG_LEVEL: "info",
    TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
}

/**
 * Polls `base`/healthz until it answers 200. Throws with the output when `alive()` turns false or
 * after `timeoutMs`.
 */
export async function waitUntilHealthy(
  base: string,
  alive: () => boolean,
  output: () => string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`server on ${base} exited before ready:\n${output()}`);
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server on ${base} not ready after ${timeoutMs} ms:\n${output()}`);
}

/**
 * The one launcher of the built server (`npm run build` first) as a separate process, the
 * compiled entry as `npm start` runs it: one process, which a SIGKILL hits directly.
 * `startServer(options)` spawns it; `await server.ready()` waits for /healthz.
 */
export class ServerProcess {
  readonly child: ChildProcess;
  readonly base: string;
  /** Everything the process wrote so far, stdout and stderr. */
  output = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly temporaryDir?: string;

  constructor(readonly options: ServerOptions) {
    const root = options.root ?? ROOT;
    if (!existsSync(path.join(root, MAIN))) {
      throw new Error("The system tests run the built server: run `npm run build` first.");
    }
    this.base = `http://127.0.0.1:${options.port}`;
    const databaseUrl = options.databaseUrl ?? options.env?.DATABASE_URL;
    let dataDir = options.dataDir ?? options.env?.DATA_DIR;
    if (!dataDir && !databaseUrl) {
      dataDir = this.temporaryDir = mkdtempSync(path.join(tmpdir(), "system-test-"));
    }
    if (dataDir && !databaseUrl && !options.freshDatabase) copyDataTemplate(dataDir);
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: serverEnv({ ...options, dataDir: options.dataDir ?? this.temporaryDir }),
    });
    this.child.stdout?.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr?.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) =>
      this.child.on("exit", (code, signal) => {
        if (this.temporaryDir) rmSync(this.temporaryDir, { recursive: true, force: true });
        resolve({ code, signal });
      }),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Waits until /healthz answers 200; throws with the server's output if it exits or times out. */
  async ready(timeoutMs = 200_000): Promise<this> {
    try {
      await waitUntilHealthy(
        this.base,
        () => this.running,
        () => this.output,
        timeoutMs,
      );
    } catch (error) {
      this.child.kill("SIGKILL");
      throw error;
    }
    return this;
  }

  /** Sends a signal (SIGTERM: the graceful shutdown; SIGKILL: a crash) and waits for the exit. */
  async stop(signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000) {
    if (this.running) this.child.kill(signal);
    return withTimeout(this.exited, timeoutMs, `server ${this.base} did not exit after ${signal}`);
  }

  /** SIGTERM and a clean exit (code 0); otherwise an error with the end of the server's output. */
  async stopCleanly(timeoutMs?: number): Promise<void> {
    const { code, signal } = await this.stop("SIGTERM", timeoutMs);
    if (code !== 0) {
      throw new Error(
        `server ${this.base} exited with ${code ?? signal} after SIGTERM:\n${this.output.slice(-8000)}`,
      );
    }
  }

  /** Waits until the log holds `count` lines with this message; throws with the output after `timeoutMs`. */
  async waitForLog(msg: string, count: number, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.logLines(msg).length < count) {
      if (Date.now() > deadline) throw new Error(`no ${count}× '${msg}' in:\n${this.output}`);
      await sleep(50);
    }
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
