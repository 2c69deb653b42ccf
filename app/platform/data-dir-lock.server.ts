import { randomBytes } from "node:crypto";
import {
  linkSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

/**
 * One process per embedded data directory. The lock is a file naming its owner: host, pid, the
 * owner's start time and the boot it belongs to (Linux), so that a lock left by a killed server is
 * taken over even when its pid now belongs to another process (pid reuse, containers, a reboot).
 * Another host (another container on a shared volume, where pids mean nothing) is judged by the
 * lock's heartbeat instead: its owner touches it every few seconds.
 */
export type LockOwner = { pid: number; start?: string; boot?: string; host?: string };

export const HEARTBEAT_MS = 5_000;
/**
 * How long a start that finds the lock held waits for it: a server killed just before (a
 * supervisor's or a shell loop's immediate restart) may still be tearing down.
 */
export const LOCK_WAIT_MS = 5_000;
/** A lock of another host untouched for this long belongs to a dead process. */
export const HEARTBEAT_STALE_MS = 12 * HEARTBEAT_MS;

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Le répertoire de données ${dataDir} est déjà ouvert par un autre processus (pid ${pid}), ` +
        `sans doute le serveur en cours d'exécution. La base embarquée n'accepte qu'un processus : ` +
        `arrêtez le serveur puis relancez la commande, ou utilisez PostgreSQL (DATABASE_URL). ` +
        `(The embedded data directory is in use by process ${pid}: stop the server first.)`,
    );
    this.name = "DataDirBusyError";
  }
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** Fields 3 and on of /proc/PID/stat, on Linux. */
function statFields(pid: number): string[] | undefined {
  const stat = readOrUndefined(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // The command name (field 2) is in parentheses and may contain spaces: count after the last ')'.
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The process's start time in clock ticks since boot (field 22 of /proc/PID/stat), on Linux. */
export function processStartTime(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/**
 * Whether the process has ended but is still listed: a zombie (Z, exited, not yet reaped by its
 * parent) or dead (X, being removed). Its files are closed; it holds nothing any more.
 */
export function processEnded(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state === "Z" || state === "X" || state === "x";
}

function bootId(): string | undefined {
  return readOrUndefined("/proc/sys/kernel/random/boot_id");
}

export function currentOwner(): LockOwner {
  return {
    pid: process.pid,
    start: processStartTime(process.pid),
    boot: bootId(),
    host: hostname(),
  };
}

/** Accepts the current JSON format and the older bare pid. */
export function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === "number" && Number.isInteger(value)) return { pid: value };
    if (value && typeof value === "object" && Number.isInteger((value as LockOwner).pid)) {
      const { pid, start, boot, host } = value as LockOwner;
      return { pid, start, boot, host };
    }
  } catch {
    // not JSON
  }
  return undefined;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether the process that wrote `owner` may still be running. `lockAgeMs`: time since the lock
 * file was last touched.
 */
export function ownerAlive(
  owner: LockOwner,
  self: LockOwner = currentOwner(),
  lockAgeMs = 0,
): boolean {
  if (owner.host && self.host && owner.host !== self.host) return lockAgeMs < HEARTBEAT_STALE_MS;
  if (owner.boot && self.boot && owner.boot !== self.boot) return false; // written before a reboot
  if (owner.pid === self.pid) {
    // Our own pid: this very process holds it (a second open), or a killed predecessor had the
    // same pid (typical in containers). Without start times, assume the predecessor.
    return owner.start !== undefined && owner.start === self.start;
  }
  if (!pidExists(owner.pid) || processEnded(owner.pid)) return false;
  if (owner.start === undefined) return true;
  const start = processStartTime(owner.pid);
  return start === undefined || start === owner.start;
}

/**
 * Takes the lock, waiting up to `waitMs` while another live process holds it, then throws
 * DataDirBusyError.
 */
export async function acquireDataDirLock(
  dataDir: string,
  waitMs = LOCK_WAIT_MS,
): Promise<() => void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return lockDataDir(dataDir);
    } catch (error) {
      if (!(error instanceof DataDirBusyError) || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Takes the lock file DIR/server.lock at once, or throws DataDirBusyError. The file is created with its
 * content in one step (link of a complete temporary file), so nobody reads a half-written lock.
 * Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, "server.lock");
  const self = currentOwner();
  const content = JSON.stringify(self);
  const unique = () => `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const tmp = unique();
    writeFileSync(tmp, content);
    try {
      linkSync(tmp, lockPath);
      const heartbeat = setInterval(() => {
        try {
          const now = new Date();
          utimesSync(lockPath, now, now);
        } catch {
          // removed under us: nothing to keep alive
        }
      }, HEARTBEAT_MS);
      heartbeat.unref();
      return () => {
        clearInterval(heartbeat);
        if (readOrUndefined(lockPath) === content) rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(tmp, { force: true });
    }
    const seen = readOrUndefined(lockPath);
    if (seen === undefined) continue; // released meanwhile
    const owner = parseOwner(seen);
    let ageMs = 0;
    try {
      ageMs = Date.now() - statSync(lockPath).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if (owner && ownerAlive(owner, self, ageMs)) throw new DataDirBusyError(dataDir, owner.pid);
    // Stale (or unreadable). Move it aside rather than delete it, then check that what we moved is
    // what we judged stale: another process may have taken the lock over in between.
    const aside = unique();
    try {
      renameSync(lockPath, aside);
    } catch {
      continue; // someone else moved it
    }
    const moved = readOrUndefined(aside);
    if (moved !== seen) {
      try {
        linkSync(aside, lockPath); // a live lock: put it back
      } catch {
        // the path was taken again meanwhile; the loop re-examines it
      }
    }
    rmSync(aside, { force: true });
  }
  throw new Error(`Impossible de verrouiller ${dataDir}`);
}
