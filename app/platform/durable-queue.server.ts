import { and, asc, eq, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import pg from "pg";
import type { Database, DatabaseHandle } from "./db.server";
import { log } from "./log.server";
import type { mailOutbox, webhookDeliveries } from "./schema.server";

// One durable queue (issue 32) for every table of work done in the background (the mail outbox,
// the webhook deliveries): rows wait as 'pending' with a due time; a worker of any instance
// claims a batch with a lease (SKIP LOCKED), works outside any transaction, records the outcome
// or retries with backoff, and gives its claims back on failure and on shutdown. A new kind of
// mail is a kind of the outbox (nothing here); a new table is one `durableQueue(...)` and one
// `startDurableQueueWorker(...)`.

/**
 * The tables of the queues. Each has `status` ('pending' while queued), `attempts`,
 * `next_attempt_at` (due), `locked_until` (the lease of a claim) and `updated_at`.
 */
export type QueueTable = typeof mailOutbox | typeof webhookDeliveries;

export type DurableQueue<Row extends { id: number }> = {
  /** What the logs call it: "mail", "webhook". */
  name: string;
  /** The NOTIFY channel announcing new or re-queued rows; every instance's worker listens. */
  channel: string;
  /** Wakes the workers (every instance) once the transaction commits. */
  notify(database: Database): Promise<void>;
  /**
   * Claims up to `limit` due rows for `leaseSeconds`: pending, due, and not claimed by a live
   * worker (a claim whose lease has expired, e.g. of a killed process, counts as free). SKIP
   * LOCKED lets instances claim side by side without waiting for or taking each other's rows.
   * The claim commits at once: the work is done outside any transaction. When the rows cannot be
   * read after their claim (the database went away in between), it throws an UnreadClaimError
   * naming them, for the worker to give them back.
   */
  claim(limit: number, leaseSeconds: number, database: Database): Promise<Row[]>;
  /**
   * Gives back a claim whose work never began (the database went away while preparing it): the
   * next look takes it instead of waiting out the lease.
   */
  releaseClaim(id: number, database: Database): Promise<void>;
  /**
   * Gives back the claims of a stopping worker (not done yet, or cut short) and wakes the
   * workers: the next to look, on any instance, takes them instead of waiting out the lease.
   */
  releaseClaims(ids: number[], database: Database): Promise<void>;
  /** When the next pending row becomes due (or its claim expires); null when nothing waits. */
  nextDueAt(database: Database): Promise<Date | null>;
  /** The pending row `id`: an outcome is recorded only on a row still queued. */
  pending(id: number): SQL | undefined;
  /** Rows no live worker holds (no claim, or its lease expired). */
  unclaimed: SQL | undefined;
};

/**
 * Rows claimed whose reading failed (the database went away between the claim and the read):
 * nobody works on them, so the worker gives them back once the database answers, rather than
 * leaving them to wait out their lease (seen as a batch of mails five minutes late after a
 * PostgreSQL restart).
 */
export class UnreadClaimError extends Error {
  constructor(
    readonly ids: number[],
    cause: unknown,
  ) {
    super("claimed rows could not be read", { cause });
  }
}

/** The columns an outcome sets besides its own: the claim is over. */
export function claimEnded() {
  return { lockedUntil: null, updatedAt: sql`now()` };
}

/** The columns of a failed attempt: due again after `delaySeconds` (the backoff), claim over. */
export function retryLater(delaySeconds: number) {
  return { nextAttemptAt: sql`now() + make_interval(secs => ${delaySeconds})`, ...claimEnded() };
}

/**
 * The queue kept in `table`. `read` loads the claimed rows as the worker needs them (a mail, a
 * delivery with its endpoint); rows gone since the claim are left out.
 */
export function durableQueue<Row extends { id: number }>(spec: {
  name: string;
  channel: string;
  table: QueueTable;
  read(ids: number[], database: Database): Promise<Row[]>;
}): DurableQueue<Row> {
  const { table, channel } = spec;
  const notify = async (database: Database) => {
    await database.execute(sql`select pg_notify(${channel}, '')`);
  };
  const unclaimed = or(isNull(table.lockedUntil), lt(table.lockedUntil, sql`now()`));
  return {
    name: spec.name,
    channel,
    notify,
    unclaimed,
    pending: (id) => and(eq(table.id, id), eq(table.status, "pending")),
    async claim(limit, leaseSeconds, database) {
      const due = database
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.status, "pending"), lte(table.nextAttemptAt, sql`now()`), unclaimed))
        .orderBy(asc(table.nextAttemptAt), asc(table.id))
        .limit(limit)
        .for("update", { skipLocked: true });
      const claimed = await database
        .update(table)
        .set({
          lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})`,
          attempts: sql`${table.attempts} + 1`,
          updatedAt: sql`now()`,
        })
        .where(inArray(table.id, due))
        .returning({ id: table.id });
      if (claimed.length === 0) return [];
      const ids = claimed.map((row) => row.id);
      try {
        return await spec.read(ids, database);
      } catch (error) {
        throw new UnreadClaimError(ids, error);
      }
    },
    async releaseClaim(id, database) {
      await database
        .update(table)
        .set(claimEnded())
        .where(and(eq(table.id, id), eq(table.status, "pending")));
    },
    async releaseClaims(ids, database) {
      if (ids.length === 0) return;
      await database
        .update(table)
        .set(claimEnded())
        .where(and(inArray(table.id, ids), eq(table.status, "pending")));
      await notify(database);
    },
    async nextDueAt(database) {
      const [row] = await database
        .select({
          at: sql<
            Date | string | null
          >`min(greatest(${table.nextAttemptAt}, coalesce(${table.lockedUntil}, ${table.nextAttemptAt})))`,
        })
        .from(table)
        .where(eq(table.status, "pending"));
      return row?.at ? new Date(row.at) : null;
    },
  };
}

/** What a queue's worker does, in every instance: `work` one claimed row. */
export type DurableQueueWorkerOptions<Row extends { id: number }> = {
  /** PostgreSQL URL to LISTEN on, so that another instance's rows wake this worker too. */
  listenUrl?: string;
  /** Rows claimed at once and worked on side by side. */
  batchSize: number;
  /** How long a claim holds a row: longer than the work's own timeouts. */
  leaseSeconds: number;
  /** Longest sleep between two looks when nothing wakes the worker. */
  pollMs: number;
  /** Before each claim (the outbox gives up the mails unsent for 3 days). */
  beforeClaim?(): Promise<void>;
  /** Does one claimed row's work and records its outcome (done, failed, or retryLater). */
  work(row: Row): Promise<void>;
  /** Called once the loop has stopped (close transports). */
  onStop?(): void;
};

/**
 * Works `queue` in this instance: claim a batch (its own short statement), work each row outside
 * any transaction, holding it until its outcome is recorded; a full batch looks again at once,
 * otherwise the worker sleeps until the next row is due. A stop lets the work in hand finish for
 * a while, then gives back what is still held (another instance may then do it twice: at least
 * once, never lost).
 */
export function startDurableQueueWorker<Row extends { id: number }>(
  handle: DatabaseHandle,
  queue: DurableQueue<Row>,
  options: DurableQueueWorkerOptions<Row>,
): QueueWorker {
  const database = handle.db;
  const { batchSize, leaseSeconds, pollMs } = options;
  const held = new HeldClaims();
  // Claimed, never read: given back at the next look (UnreadClaimError).
  const unread: number[] = [];

  async function cycle(stopping: () => boolean): Promise<number> {
    if (unread.length > 0) await queue.releaseClaims([...unread], database);
    unread.length = 0;
    await options.beforeClaim?.();
    let claimed: Row[];
    try {
      claimed = await queue.claim(batchSize, leaseSeconds, database);
    } catch (error) {
      if (error instanceof UnreadClaimError) unread.push(...error.ids);
      throw error;
    }
    if (stopping()) {
      await queue.releaseClaims(
        claimed.map((row) => row.id),
        database,
      );
      return 0;
    }
    await held.work(claimed, options.work);
    if (claimed.length === batchSize) return 0;
    return delayUntil(await queue.nextDueAt(database), pollMs);
  }

  return startQueueWorker(handle, {
    name: queue.name,
    channel: queue.channel,
    listenUrl: options.listenUrl,
    pollMs,
    cycle,
    giveBackClaims: () => queue.releaseClaims([...held.take(), ...unread.splice(0)], database),
    onStop: options.onStop,
  });
}

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

type QueueWorkerOptions = {
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
function startQueueWorker(handle: DatabaseHandle, options: QueueWorkerOptions): QueueWorker {
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
function delayUntil(next: Date | null, pollMs: number): number {
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
    const unlisten = handle.client.listen(channel, wake);
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
class HeldClaims {
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
