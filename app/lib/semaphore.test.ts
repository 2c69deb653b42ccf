import { describe, expect, it } from "vitest";
import { createSemaphore, QueueFullError } from "./semaphore";

/** A task that runs until `finish()` is called; `started` says whether it began. */
function gate<T = string>(value?: T) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const state = { started: false };
  const task = async () => {
    state.started = true;
    await done;
    return value as T;
  };
  return { task, finish, state };
}

/** Lets the promise callbacks queued so far run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("createSemaphore", () => {
  it("runs at most `concurrency` tasks at once and the next in line when one ends", async () => {
    const semaphore = createSemaphore({ concurrency: 2, maxQueued: 5 });
    const gates = [gate("a"), gate("b"), gate("c")];
    const results = gates.map((g) => semaphore.run(g.task));
    await settle();
    expect(gates.map((g) => g.state.started)).toEqual([true, true, false]);
    expect(semaphore.active).toBe(2);
    expect(semaphore.queued).toBe(1);
    gates[0].finish();
    await settle();
    expect(gates[2].state.started).toBe(true);
    expect(semaphore.active).toBe(2);
    gates[1].finish();
    gates[2].finish();
    expect(await Promise.all(results)).toEqual(["a", "b", "c"]);
    expect(semaphore.active).toBe(0);
    expect(semaphore.queued).toBe(0);
  });

  it("refuses at once past the bounded line, and takes tasks again once it shortens", async () => {
    const semaphore = createSemaphore({ concurrency: 1, maxQueued: 2 });
    const gates = [gate(), gate(), gate()];
    const running = gates.map((g) => semaphore.run(g.task));
    await expect(semaphore.run(async () => "late")).rejects.toBeInstanceOf(QueueFullError);
    expect(semaphore.queued).toBe(2);
    gates[0].finish();
    await settle();
    const accepted = semaphore.run(async () => "in line");
    gates[1].finish();
    gates[2].finish();
    await Promise.all(running);
    expect(await accepted).toBe("in line");
  });

  it("lets priority tasks go first, in a line of their own that ordinary tasks cannot fill", async () => {
    const semaphore = createSemaphore({
      concurrency: 1,
      maxQueued: 1,
      maxPriorityQueued: 1,
    });
    const order: string[] = [];
    const first = gate();
    const running = semaphore.run(first.task);
    const ordinary = semaphore.run(async () => order.push("ordinary"));
    await expect(semaphore.run(async () => "flood")).rejects.toBeInstanceOf(QueueFullError);
    const owner = semaphore.run(async () => order.push("priority"), { priority: true });
    await expect(semaphore.run(async () => 0, { priority: true })).rejects.toBeInstanceOf(
      QueueFullError,
    );
    first.finish();
    await Promise.all([running, ordinary, owner]);
    expect(order).toEqual(["priority", "ordinary"]);
  });

  it("frees the slot when a task fails", async () => {
    const semaphore = createSemaphore({ concurrency: 1, maxQueued: 0 });
    await expect(semaphore.run(async () => Promise.reject(new Error("argon2")))).rejects.toThrow(
      "argon2",
    );
    expect(semaphore.active).toBe(0);
    expect(await semaphore.run(async () => 42)).toBe(42);
  });

  it("hands a freed slot over the way it is told (a later turn of the event loop)", async () => {
    const handed: (() => void)[] = [];
    const semaphore = createSemaphore({
      concurrency: 1,
      maxQueued: 1,
      handOff: (next) => handed.push(next),
    });
    const first = gate("a");
    const second = gate("b");
    const runs = [semaphore.run(first.task), semaphore.run(second.task)];
    first.finish();
    await runs[0];
    await settle();
    expect(second.state.started).toBe(false);
    expect(handed).toHaveLength(1);
    handed[0]();
    await settle();
    expect(second.state.started).toBe(true);
    second.finish();
    await runs[1];
    expect(semaphore.active).toBe(0);
  });
});
