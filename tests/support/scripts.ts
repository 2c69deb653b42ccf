import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Runs one of our scripts (`scripts/<name>.ts`) the way `npm run` does, with a time limit, on the
 * embedded database unless `env` says otherwise.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 45_000,
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, "node_modules/tsx/dist/cli.mjs"), `scripts/${script}.ts`, ...args],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "warn", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${script} did not finish in time\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
