import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  acquireDataDirLock,
  currentOwner,
  DataDirBusyError,
  HEARTBEAT_STALE_MS,
  lockDataDir,
  ownerAlive,
  parseOwner,
  processEnded,
  processStartTime,
} from "./data-dir-lock.server";

let dir: string;
const lockFile = () => path.join(dir, "server.lock");

/** Takes the lock, checks that this process now owns it, then releases it. */
function takeOver() {
  const unlock = lockDataDir(dir);
  expect(parseOwner(readFileSync(lockFile(), "utf8"))).toMatchObject({ pid: process.pid });
  unlock();
  expect(existsSync(lockFile())).toBe(false);
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("data directory lock", () => {
  // The site and its tests run on Linux (Debian): the lock tells a live owner by /proc.
  it("reads a process's start time from /proc", () => {
    expect(processStartTime(process.pid)).toMatch(/^\d+$/);
  });

  it("is exclusive within a process and released on unlock", () => {
    const unlock = lockDataDir(dir);
    expect(parseOwner(readFileSync(lockFile(), "utf8"))?.pid).toBe(process.pid);
    expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);
    unlock();
    expect(existsSync(lockFile())).toBe(false);
    takeOver();
  });

  it("refuses a lock held by another live process", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      const pid = child.pid!;
      writeFileSync(
        lockFile(),
        JSON.stringify({ pid, start: processStartTime(pid), boot: currentOwner().boot }),
      );
      expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);
      // The older format, a bare pid, of a live process: refused too.
      writeFileSync(lockFile(), String(pid));
      expect(() => lockDataDir(dir)).toThrow(/pid \d+/);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("takes over the lock of a killed server", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    const pid = child.pid!;
    const start = processStartTime(pid);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.on("exit", resolve));
    writeFileSync(lockFile(), JSON.stringify({ pid, start, boot: currentOwner().boot }));
    const unlock = lockDataDir(dir);
    expect(parseOwner(readFileSync(lockFile(), "utf8"))?.pid).toBe(process.pid);
    unlock();
  });

  it("takes over a lock whose pid now belongs to another process", () => {
    // The parent of this test runner is alive, but it started at another time than the owner.
    const self = currentOwner();
    const reused = { pid: process.ppid, start: "1", boot: self.boot };
    expect(ownerAlive(reused, self)).toBe(false);
    // Same pid as ours, written by a killed predecessor (containers): not alive.
    expect(ownerAlive({ pid: self.pid, start: "1", boot: self.boot }, self)).toBe(false);
    // Written before a reboot: not alive, whatever the pid.
    expect(ownerAlive({ ...self, boot: "another-boot" }, self)).toBe(false);
    expect(ownerAlive(self, self)).toBe(true);
    writeFileSync(lockFile(), JSON.stringify(reused));
    takeOver();
  });

  it("judges a lock written on another host by its heartbeat", () => {
    const self = currentOwner();
    const other = { pid: 1, start: "1", boot: "another-boot", host: "another-container" };
    expect(ownerAlive(other, self, 1_000)).toBe(true);
    expect(ownerAlive(other, self, HEARTBEAT_STALE_MS + 1)).toBe(false);
    writeFileSync(lockFile(), JSON.stringify(other));
    expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);
    const old = new Date(Date.now() - HEARTBEAT_STALE_MS - 5_000);
    utimesSync(lockFile(), old, old);
    takeOver();
  });

  it("takes over an empty or unreadable lock file", () => {
    writeFileSync(lockFile(), "");
    takeOver();
    writeFileSync(lockFile(), "not a lock");
    takeOver();
  });

  it("takes over the lock of a killed server its parent has not reaped yet", async () => {
    // The shell starts a short sleep in the background, then becomes `sleep 30`, which never reaps it:
    // the pid stays listed as a zombie (state Z), as a killed server under a busy supervisor.
    const parent = spawn("sh", ["-c", "sleep 0.3 & echo $!; exec sleep 30"]);
    try {
      const pid = Number(
        await new Promise<string>((resolve) =>
          parent.stdout.once("data", (b: Buffer) => resolve(b.toString())),
        ),
      );
      while (!processEnded(pid)) await new Promise((resolve) => setTimeout(resolve, 10));
      const owner = { pid, start: processStartTime(pid), boot: currentOwner().boot };
      expect(owner.start).toBeDefined(); // still listed, with its start time: only its state tells
      expect(ownerAlive(owner)).toBe(false);
      writeFileSync(lockFile(), JSON.stringify(owner));
      takeOver();
    } finally {
      parent.kill("SIGKILL");
    }
  });

  it("waits for a held lock to be released, and gives up after the wait", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      const pid = child.pid!;
      const owner = { pid, start: processStartTime(pid), boot: currentOwner().boot };
      writeFileSync(lockFile(), JSON.stringify(owner));
      await expect(acquireDataDirLock(dir, 300)).rejects.toThrow(DataDirBusyError);
      // Released while a start waits: that start takes it.
      const waiting = acquireDataDirLock(dir, 60_000);
      setTimeout(() => child.kill("SIGKILL"), 200);
      const unlock = await waiting;
      expect(parseOwner(readFileSync(lockFile(), "utf8"))?.pid).toBe(process.pid);
      unlock();
    } finally {
      child.kill("SIGKILL");
    }
  });
});
