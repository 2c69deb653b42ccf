import type { ChildProcess } from "node:child_process";
import { startServer, waitUntilHealthy } from "../../tests/system/harness/server-process";

/**
 * The built server as `npm start` runs it (the compiled entry, `npm run build` first), through
 * the tests' one launcher. The one place in the bench that knows how the server is started.
 */
export function startAppServer(options: { port: number; env: Record<string, string> }): {
  child: ChildProcess;
  base: string;
} {
  const server = startServer({
    port: options.port,
    nodeArgs: ["--max-semi-space-size=4"],
    // The bench sends no X-Forwarded-For: the proxy setting of the tests is not wanted here.
    env: { LOG_LEVEL: "error", TRUST_PROXY: undefined, ...options.env },
  });
  server.child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  return { child: server.child, base: server.base };
}

/** Waits for `url`'s /healthz (its errors are on stderr above). */
export function waitFor(url: string, child: ChildProcess, what: string) {
  return waitUntilHealthy(
    new URL(url).origin,
    () => child.exitCode === null && child.signalCode === null,
    () => `${what}: see its standard error above`,
  );
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
