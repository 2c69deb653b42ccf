import { describe, expect, it } from "vitest";
import { freshRead } from "./fresh-read";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("freshRead", () => {
  it("gives every caller a read that started after it called, sharing reads under load", async () => {
    let value = 0;
    const reads: { startedWith: number; done: ReturnType<typeof deferred<number>> }[] = [];
    const fresh = freshRead(() => {
      const done = deferred<number>();
      reads.push({ startedWith: value, done });
      return done.promise;
    });

    const first = fresh(); // starts read 1
    value = 1; // a write commits while read 1 is in flight
    const second = fresh(); // must not get read 1's answer
    const third = fresh(); // shares the queued read with `second`
    expect(reads).toHaveLength(1);

    reads[0].done.resolve(reads[0].startedWith);
    expect(await first).toBe(0);
    await Promise.resolve();
    await Promise.resolve();
    expect(reads).toHaveLength(2);
    reads[1].done.resolve(reads[1].startedWith);
    expect(await second).toBe(1);
    expect(await third).toBe(1);
    expect(reads).toHaveLength(2);
  });

  it("starts a new read after a failure", async () => {
    let calls = 0;
    const fresh = freshRead(async () => {
      calls += 1;
      if (calls === 1) throw new Error("down");
      return calls;
    });
    await expect(fresh()).rejects.toThrow("down");
    expect(await fresh()).toBe(2);
  });

  it("queues behind a failing read and still gets a fresh answer", async () => {
    const first = deferred<number>();
    let calls = 0;
    const fresh = freshRead(() => {
      calls += 1;
      return calls === 1 ? first.promise : Promise.resolve(calls);
    });
    const a = fresh();
    const b = fresh();
    first.reject(new Error("down"));
    await expect(a).rejects.toThrow("down");
    expect(await b).toBe(2);
  });
});
