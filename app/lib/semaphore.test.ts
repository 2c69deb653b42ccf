import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore";

/** A task that finishes when told to. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, task: async () => opened };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("Semaphore", () => {
  it("runs at most `limit` tasks at once, queues up to `maxQueue`, refuses beyond", async () => {
    const semaphore = new Semaphore(2, 1);
    const [a, b, c] = [gate(), gate(), gate()];
    const started: string[] = [];
    const run = (name: string, g: ReturnType<typeof gate>) =>
      semaphore.run(async () => {
        started.push(name);
        await g.task();
        return name;
      });
    const runs = [run("a", a), run("b", b), run("c", c)];
    await tick();
    expect(started).toEqual(["a", "b"]);
    expect(semaphore.load).toEqual({ active: 2, waiting: 1 });
    expect(await semaphore.run(async () => "d")).toEqual({ ran: false });

    a.open();
    await runs[0];
    await tick();
    expect(started).toEqual(["a", "b", "c"]);
    expect(semaphore.load).toEqual({ active: 2, waiting: 0 });
    b.open();
    c.open();
    expect(await Promise.all(runs)).toEqual([
      { ran: true, value: "a" },
      { ran: true, value: "b" },
      { ran: true, value: "c" },
    ]);
    expect(semaphore.load).toEqual({ active: 0, waiting: 0 });
  });

  it("gives the turn back when a task fails", async () => {
    const semaphore = new Semaphore(1, 0);
    await expect(semaphore.run(() => Promise.reject(new Error("raté")))).rejects.toThrow("raté");
    expect(await semaphore.run(async () => 1)).toEqual({ ran: true, value: 1 });
    expect(semaphore.load).toEqual({ active: 0, waiting: 0 });
  });

  it("hands the turn over on a later turn of the event loop, not at once", async () => {
    const handed: (() => void)[] = [];
    const semaphore = new Semaphore(1, 1, (next) => handed.push(next));
    const first = gate();
    const running = semaphore.run(first.task);
    let secondStarted = false;
    const second = semaphore.run(async () => {
      secondStarted = true;
    });
    first.open();
    await running;
    expect(secondStarted).toBe(false);
    expect(handed).toHaveLength(1);
    handed[0]();
    await second;
    expect(secondStarted).toBe(true);
  });
});
