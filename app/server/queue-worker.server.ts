import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { DatabaseHandle } from "./db.server";
import { log } from "./log.server";

/** A background worker of a database queue (the mail outbox, the webhook deliveries). */
export type QueueWorker = {
  /** Looks at the queue now (also done on every NOTIFY of its channel). */
  wake(): void;
  /**
   * Stops claiming, lets the work in hand finish (at most graceMs), gives back the claims of what
   * did not finish, stops listening.
   */
  stop(graceMs?: number): Promise<void>;
};

export type QueueWorkerOptions = {
  /** What the logs call it: "mail", "webhook". */
  name: string;
  /** The NOTIFY channel announcing new or re-queued rows. */
  channel: string;
  /** PostgreSQL URL to LISTEN on, so that another instance's rows wake this worker too. */
  listenUrl?: string;
  /** Longest sleep between two looks when nothing wakes the worker. */
  pollMs: number;
  /**
   * One look at the queue (claim, work, record); returns how long to sleep before the next. Rows
   * claimed after `stopping()` turned true are given back at once, not worked on.
   */
  cycle(stopping: () => boolean): Promise<number>;
  /**
   * Gives back the claims of the work not finished when the worker stops (after the grace), so
   * that another instance takes it now rather than when the lease expires.
   */
  giveBackClaims?(): Promise<void>;
  /** Called once the loop has stopped (close transports). */
  onStop?(): void;
};

/**
 * Runs `cycle` in a loop in this instance: woken by NOTIFY (rows queued by this instance, and by
 * the others on PostgreSQL), polling otherwise. A failed look (database away) is logged and
 * retried soon (0.5 s, doubling up to pollMs), so the queue resumes right after a restart.
 */
export function startQueueWorker(handle: DatabaseHandle, options: QueueWorkerOptions): QueueWorker {
  const { name, pollMs } = options;
  let running = true;
  let woken = false;
  let wakeSleeper: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeSleeper?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleeper = undefined;
        resolve();
      }
      wakeSleeper = done;
    });

  const stopListening = listen(handle, options.listenUrl, options.channel, name, wake);

  const loop = (async () => {
    // After a failed look (database restarting), look again soon, then less often.
    let failures = 0;
    while (running) {
      woken = false;
      let delay: number;
      try {
        delay = await options.cycle(() => !running);
        failures = 0;
      } catch (error) {
        failures++;
        delay = Math.min(pollMs, 500 * 2 ** (failures - 1));
        log.warn(`${name} queue unavailable; will look again`, { error, retryInMs: delay });
      }
      if (!running) break;
      if (!woken && delay > 0) await sleep(delay);
    }
  })();

  return {
    wake,
    async stop(graceMs = 10_000) {
      running = false;
      wakeSleeper?.();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        loop.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (!finished) log.warn(`${name} worker: work in hand not finished in time`, { graceMs });
      await options.giveBackClaims?.().catch((error: unknown) => {
        log.warn(`${name} worker: claims not given back (their leases will expire)`, { error });
      });
      await stopListening();
      options.onStop?.();
      log.info(`${name} worker stopped`);
    },
  };
}

/** How long to sleep until `next` is due: never a busy loop, never longer than pollMs. */
export function delayUntil(next: Date | null, pollMs: number): number {
  if (!next) return pollMs;
  return Math.min(pollMs, Math.max(100, next.getTime() - Date.now()));
}

/**
 * Calls wake on every NOTIFY of `channel`. PGlite delivers its own notifications in-process; on
 * PostgreSQL one dedicated connection listens, and is reopened after a failure (polling covers
 * the gap). Returns the function that stops listening.
 */
function listen(
  handle: DatabaseHandle,
  listenUrl: string | undefined,
  channel: string,
  name: string,
  wake: () => void,
): () => Promise<void> {
  if (handle.kind === "pglite") {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    const unlisten = client.listen(channel, wake);
    unlisten.catch((error: unknown) => log.warn(`${name} LISTEN failed`, { error }));
    return async () => {
      await (await unlisten.catch(() => undefined))?.().catch(() => {});
    };
  }
  if (!listenUrl) return async () => {};
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  // Reopened soon after a loss (a PostgreSQL restart takes seconds), then at most every 2 s.
  let failures = 0;
  const connect = async () => {
    const next = new pg.Client({ connectionString: listenUrl, connectionTimeoutMillis: 5_000 });
    const reconnect = () => {
      if (client !== next) return;
      client = undefined;
      next.end().catch(() => {});
      failures++;
      if (!stopped)
        retry = setTimeout(() => void connect(), Math.min(2_000, 250 * 2 ** (failures - 1)));
    };
    next.on("error", (error) => {
      log.warn(`${name} LISTEN connection lost`, { error: error.message });
      reconnect();
    });
    next.on("end", reconnect);
    next.on("notification", wake);
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
      if (failures > 0) log.info(`${name} LISTEN connection restored`, { attempts: failures });
      failures = 0;
      // Rows queued while the connection was down: look now.
      wake();
    } catch (error) {
      log.warn(`${name} LISTEN connection failed`, { error });
      reconnect();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
}

/**
 * The rows a worker holds: claimed, their outcome not recorded yet. What is still held when the
 * worker stops (after its grace) is given back.
 */
export class HeldClaims {
  private readonly ids = new Set<number>();

  /** Works on each claimed row at once, holding it until its work ends (recorded or not). */
  async work<T extends { id: number }>(rows: T[], each: (row: T) => Promise<void>): Promise<void> {
    for (const row of rows) this.ids.add(row.id);
    await Promise.all(rows.map((row) => each(row).finally(() => this.ids.delete(row.id))));
  }

  /** The ids still held, forgotten: the caller gives them back. */
  take(): number[] {
    const ids = [...this.ids];
    this.ids.clear();
    return ids;
  }
}
