// A counting semaphore with bounded queues (issue 28): at most `concurrency` tasks run at once;
// beyond, tasks wait in line, and past `maxQueued` waiting tasks a new one is refused at once
// (QueueFullError) instead of piling up. Priority tasks (a browser known to the account, a
// signed-in administrator) wait ahead of the others, in a line of their own with its own bound, so
// that a flood of ordinary tasks never keeps them out. Used by password hashing (argon2) and the
// public quote PDFs. Pure: no timers, no I/O (the hand-off is given).

/** Every slot is busy and the line is full: refused without waiting. */
export class QueueFullError extends Error {
  constructor() {
    super("semaphore queue full");
    this.name = "QueueFullError";
  }
}

export type SemaphoreOptions = {
  /** Tasks running at once (1 or more). */
  concurrency: number;
  /** Ordinary tasks waiting at most; the next one is refused. */
  maxQueued: number;
  /** Priority tasks waiting at most (default: maxQueued). */
  maxPriorityQueued?: number;
  /**
   * How a freed slot reaches the next task (default: at once). `setImmediate` lets the requests
   * that arrived meanwhile (cached pages) be answered between two CPU-bound tasks (quote PDFs).
   */
  handOff?: (next: () => void) => void;
};

export type Semaphore = {
  /** Runs `task` when a slot is free (priority tasks first); rejects with QueueFullError when the line is full. */
  run<T>(task: () => Promise<T>, options?: { priority?: boolean }): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting now (both lines). */
  readonly queued: number;
  /** Ordinary tasks waiting now: a new one is refused when this reaches maxQueued. */
  readonly queuedOrdinary: number;
};

export function createSemaphore(options: SemaphoreOptions): Semaphore {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const maxQueued = Math.max(0, Math.floor(options.maxQueued));
  const maxPriorityQueued = Math.max(0, Math.floor(options.maxPriorityQueued ?? maxQueued));
  const ordinary: (() => void)[] = [];
  const priority: (() => void)[] = [];
  const handOff = options.handOff ?? ((next: () => void) => next());
  let active = 0;

  /** Hands the slot just freed to the next in line, priority first. */
  function release() {
    const next = priority.shift() ?? ordinary.shift();
    if (next) handOff(next);
    else active--;
  }

  function acquire(first: boolean): Promise<void> {
    if (active < concurrency) {
      active++;
      return Promise.resolve();
    }
    const line = first ? priority : ordinary;
    if (line.length >= (first ? maxPriorityQueued : maxQueued)) {
      return Promise.reject(new QueueFullError());
    }
    // The slot passes from the task that releases it to this one: `active` stays as it is.
    return new Promise<void>((resolve) => line.push(resolve));
  }

  return {
    async run(task, runOptions = {}) {
      await acquire(runOptions.priority ?? false);
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get queued() {
      return ordinary.length + priority.length;
    },
    get queuedOrdinary() {
      return ordinary.length;
    },
  };
}
