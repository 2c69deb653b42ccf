import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pingClamd } from "../../app/platform/virus-scan.server";

export const CLAMD_PATH = process.env.CLAMD_PATH ?? "/usr/sbin/clamd";

/** The EICAR test file: 68 bytes every antivirus reports, harmless. */
export const EICAR = Buffer.from(
  "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*",
  "latin1",
);
/** The name our test database gives it (clamd answers `stream: <name> FOUND`). */
export const EICAR_SIGNATURE = "Eicar-Test-Signature";

export type TestClamd = {
  /** CLAMAV_SOCKET for this clamd (a Unix socket in its temporary folder). */
  socket: string;
  /** Stops clamd (SIGTERM) and removes its folder. */
  stop(): Promise<void>;
};

/**
 * A real clamd (Debian's clamav-daemon) with a configuration of its own in a temporary folder and
 * a signature database made here, one body signature for the EICAR test file: the public
 * databases are not downloaded (no network to their mirrors), and clamd refuses to start without
 * any. Run as whoever runs the tests (root in CI): every path is this process's own. Ready when
 * it answers PING (about a second here); 30 s at most.
 */
export async function startTestClamd(options: { socket?: string } = {}): Promise<TestClamd> {
  const dir = mkdtempSync(path.join(tmpdir(), "clamd-"));
  const database = path.join(dir, "db");
  mkdirSync(database);
  // An extended (.ndb) signature: name, any file type (0), any offset (*), the bytes in hex.
  writeFileSync(
    path.join(database, "test.ndb"),
    `${EICAR_SIGNATURE}:0:*:${EICAR.toString("hex")}\n`,
  );
  // A socket path chosen before the start lets a test file set CLAMAV_SOCKET in vi.hoisted.
  const socket = options.socket ?? path.join(dir, "clamd.sock");
  rmSync(socket, { force: true });
  const logFile = path.join(dir, "clamd.log");
  writeFileSync(
    path.join(dir, "clamd.conf"),
    `
LocalSocket ${socket}
LocalSocketMode 600
DatabaseDirectory ${database}
TemporaryDirectory ${dir}
PidFile ${dir}/clamd.pid
Foreground yes
LogSyslog no
LogFile ${logFile}
LogTime yes
# What production sets (docs/production.md): above the 10 MB uploads, whole files scanned.
StreamMaxLength 25M
MaxFileSize 25M
MaxScanSize 100M
# No self-check of the database every 10 minutes, no bytecode: nothing to update here.
SelfCheck 0
Bytecode no
`,
  );
  const child: ChildProcess = spawn(CLAMD_PATH, ["-c", path.join(dir, "clamd.conf")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // clamd repeats its log on stdout in the foreground: only the end is kept, for errors.
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const logTail = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-2000) : "");
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`clamd exited (${child.exitCode ?? child.signalCode}): ${output}`);
    }
    if (existsSync(socket) && (await pingClamd({ socket, timeoutMs: 1_000 }))) break;
    if (Date.now() > deadline) {
      // Not left running behind a failed start.
      child.kill("SIGKILL");
      await exited;
      const log = logTail();
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`clamd not ready within 30 s: ${output}\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    socket,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
