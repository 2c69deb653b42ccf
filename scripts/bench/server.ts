import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The built server as `npm start` runs it (the compiled entry, `npm run build` first). The one
 * place in the bench that knows how the server is started.
 */
export function startAppServer(options: { port: number; env: Record<string, string> }): {
  child: ChildProcess;
  base: string;
} {
  const base = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, ["--max-semi-space-size=4", "build/server/main.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(options.port),
      HOST: "127.0.0.1",
      SITE_URL: base,
      LOG_LEVEL: "error",
      ...options.env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { child, base };
}

export async function waitFor(url: string, child: ChildProcess, what: string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
