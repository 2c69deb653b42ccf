// At most `limit` tasks at once, at most `maxQueue` waiting for a turn; beyond that a task is
// refused at once (issue 28: quote PDFs, rendered on the event loop). A finished task hands its
// turn to the next one on a later turn of the event loop (`schedule`), so that the requests that
// arrived meanwhile (cached pages) are answered between two renders, not after all of them.

export type Outcome<T> = { ran: true; value: T } | { ran: false };

export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly maxQueue: number,
    private readonly schedule: (next: () => void) => void = (next) => setImmediate(next),
  ) {}

  /** Runs `task` when a turn is free; `{ ran: false }` when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<Outcome<T>> {
    if (this.active < this.limit) {
      this.active += 1;
    } else if (this.waiting.length < this.maxQueue) {
      // The turn is handed over by release(): `active` stays counted for this task.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      return { ran: false };
    }
    try {
      return { ran: true, value: await task() };
    } finally {
      this.release();
    }
  }

  /** Tasks running and waiting now. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) this.schedule(next);
    else this.active -= 1;
  }
}
