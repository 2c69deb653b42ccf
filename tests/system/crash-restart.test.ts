import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedMessages, postContactsUntilStopped, storedIds } from "./harness/contact-load";
import { findFreePort } from "./harness/ports";
import { ROOT, serverEnv, startServer, waitUntilHealthy } from "./harness/server-process";
import { removeDir, sleep, tempDir } from "./support";

/**
 * A supervisor restarting the embedded server right after a SIGKILL: the killed process is still
 * listed (a zombie) until its parent reaps it, and the new start must not take it for a live owner
 * of the data directory. The first server runs under a parent that never reaps it (a shell that
 * became `sleep`), so the zombie outlives the restart, as under a busy supervisor.
 */

const CLIENTS = 10;

function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

describe("embedded database: immediate restart after SIGKILL", () => {
  const cleanups: (() => void)[] = [];
  afterAll(() => cleanups.reverse().forEach((cleanup) => cleanup()));

  it("starts at once while the killed server is a zombie; every acknowledged request is there", async () => {
    const dataDir = tempDir("crash-restart");
    cleanups.push(() => removeDir(dataDir));
    const port = await findFreePort();
    const base = `http://127.0.0.1:${port}`;

    // sh starts the server in the background, prints its pid, then becomes `sleep`: the server's
    // parent is now a process that never waits for it.
    const parent = spawn(
      "sh",
      ["-c", 'node build/server/main.js & echo "pid=$!"; exec sleep 600'],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: serverEnv({ port, dataDir, env: { LOG_LEVEL: "warn" } }),
      },
    );
    cleanups.push(() => parent.kill("SIGKILL"));
    let firstOutput = "";
    parent.stdout.on("data", (b: Buffer) => (firstOutput += b.toString()));
    parent.stderr.on("data", (b: Buffer) => (firstOutput += b.toString()));
    while (!/pid=\d+/.test(firstOutput)) await sleep(20);
    const serverPid = Number(/pid=(\d+)/.exec(firstOutput)![1]);
    await waitUntilHealthy(
      base,
      () => processState(serverPid) !== undefined,
      () => firstOutput,
    );

    const label = `crash ${randomBytes(4).toString("hex")}`;
    const load = postContactsUntilStopped(base, { clients: CLIENTS, label });
    while (load.acknowledged.size < 30) await sleep(5);
    process.kill(serverPid, "SIGKILL");
    while (!["Z", "X", undefined].includes(processState(serverPid))) await sleep(1);
    const clientsDone = load.stop();

    // At once, while the killed server is still listed as a zombie.
    const restarted = startServer({ port, dataDir });
    expect(processState(serverPid)).toBe("Z");
    await restarted.ready();
    await clientsDone;
    expect(processState(serverPid)).toBe("Z"); // nobody reaped it: the lock judged it by its state
    expect((await fetch(`${restarted.base}/offers`)).status).toBe(200);
    await restarted.stopCleanly();

    const stored = storedIds(await embeddedMessages(dataDir), label);
    const acknowledged = load.acknowledged;
    const lost = [...acknowledged].filter((id) => !stored.has(id));
    console.log(
      `crash restart: ${acknowledged.size} acknowledged, ${acknowledged.size - lost.length} stored, ${lost.length} lost`,
    );
    expect(acknowledged.size).toBeGreaterThan(0);
    expect(lost).toEqual([]);
  });
});
