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
});
