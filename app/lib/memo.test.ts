import { describe, expect, it, vi } from "vitest";
import { memo } from "./memo";

describe("memo", () => {
  it("makes a value once per arguments and keeps at most max, the least recently used out first", () => {
    let made = 0;
    const get = memo((key: string) => `${key}${++made}`, { max: 2 });
    expect([get("a"), get("a"), get("b")]).toEqual(["a1", "a1", "b2"]);
    get("a"); // used: "b" is now the least recent
    expect(get("c")).toBe("c3");
    expect(get.size).toBe(2);
    expect(get("a")).toBe("a1");
    expect(get("b")).toBe("b4"); // made again: it had left
  });

  it("keys other arguments by their JSON", () => {
    const make = vi.fn((filters: { type?: string }, page: number) => ({ ...filters, page }));
    const get = memo(make, { max: 10 });
    expect(get({ type: "loa" }, 1)).toBe(get({ type: "loa" }, 1));
    expect(get({ type: "loa" }, 2)).not.toBe(get({ type: "loa" }, 1));
    expect(get({}, 1)).toEqual({ page: 1 });
    expect(make).toHaveBeenCalledTimes(3);
  });

  it("forgets an entry after ttlMs", () => {
    let now = 5000;
    let made = 0;
    const get = memo(() => ++made, { max: 10, ttlMs: 1000, now: () => now });
    expect(get()).toBe(1);
    now = 5999;
    expect(get()).toBe(1);
    now = 6001;
    expect(get()).toBe(2);
  });

  it("computes a pending promise once for concurrent calls and forgets a rejected one", async () => {
    let calls = 0;
    let fail = true;
    const get = memo(
      async (key: string) => {
        calls++;
        await Promise.resolve();
        if (fail) throw new Error("unreachable");
        return key;
      },
      { max: 10 },
    );
    const [first, second] = [get("a"), get("a")];
    expect(first).toBe(second);
    await expect(first).rejects.toThrow("unreachable");
    expect(calls).toBe(1);
    fail = false;
    expect(await Promise.all([get("a"), get("a")])).toEqual(["a", "a"]);
    expect(calls).toBe(2);
    expect(await get("a")).toBe("a");
    expect(calls).toBe(2);
  });

  it("forgets every entry when the version changes, and keeps nothing without one", async () => {
    let version: string | undefined = "1";
    let made = 0;
    const get = memo(async (key: string) => `${key}${++made}`, {
      max: 10,
      version: () => (version === "2" ? Promise.resolve(version) : version),
    });
    expect(await get("a")).toBe("a1");
    expect(await get("b")).toBe("b2");
    expect(await get("a")).toBe("a1");
    version = "2";
    expect(await get("a")).toBe("a3");
    expect(get.size).toBe(1); // "b" of version 1 is gone
    version = undefined;
    expect(await get("a")).toBe("a4");
    expect(await get("a")).toBe("a5");
  });

  it("clear() forgets every entry", () => {
    let made = 0;
    const get = memo(() => ++made, { max: 10 });
    get();
    get.clear();
    expect(get()).toBe(2);
  });

  it("peeks at a kept value without making it", () => {
    const make = vi.fn((key: string) => key.toUpperCase());
    const get = memo(make, { max: 10 });
    expect(get.peek("a")).toBeUndefined();
    expect(get("a")).toBe("A");
    expect(get.peek("a")).toBe("A");
    expect(make).toHaveBeenCalledTimes(1);
  });

  it("gives each value its own time to live, a promise's once resolved", async () => {
    let now = 5000;
    let made = 0;
    const get = memo(async (key: string) => ({ key, found: key !== "none", n: ++made }), {
      max: 10,
      ttlMs: 1000,
      ttlOf: (v) => (v.found ? undefined : 100),
      now: () => now,
    });
    await get("none");
    await get("some");
    now = 5150;
    expect((await get("none")).n).toBe(3); // asked again after 100 ms
    expect((await get("some")).n).toBe(2); // kept for 1000 ms
  });

  it("bounds the values' total size, the least recently used out first", async () => {
    const get = memo(async (key: string) => Buffer.alloc(Number(key)), {
      max: 100,
      maxSize: 100,
      sizeOf: (b) => b.length,
    });
    await get("60");
    await get("30");
    expect(get.size).toBe(2);
    await get("50"); // 140 bytes: the 60 goes
    expect(get.peek("60")).toBeUndefined();
    expect(get.peek("30")).toBeDefined();
    expect(get.size).toBe(2);
  });
});
