import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./rate-limit.server";

function clock() {
  let ms = 1_000_000;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

describe("TokenBuckets", () => {
  it("lets a client spend its burst at once, then refuses with the wait for the next token", () => {
    const time = clock();
    const buckets = new TokenBuckets({ perMinute: 60, burst: 3, now: time.now });
    expect([1, 2, 3].map(() => buckets.take("a").allowed)).toEqual([true, true, true]);
    expect(buckets.take("a")).toEqual({ allowed: false, retryAfterSeconds: 1, first: true });
    // Refused again: not the first refusal of the episode.
    expect(buckets.take("a")).toMatchObject({ allowed: false, first: false });
    time.advance(1_000);
    expect(buckets.take("a").allowed).toBe(true);
    expect(buckets.take("a")).toMatchObject({ allowed: false, first: true });
  });

  it("refills at the rate, never above the burst", () => {
    const time = clock();
    const buckets = new TokenBuckets({ perMinute: 6, burst: 2, now: time.now });
    buckets.take("a");
    buckets.take("a");
    // One token every 10 s: 4 s after the last one, 6 s to wait.
    time.advance(4_000);
    expect(buckets.take("a")).toMatchObject({ allowed: false, retryAfterSeconds: 6 });
    time.advance(3_600_000);
    expect([1, 2, 3].map(() => buckets.take("a").allowed)).toEqual([true, true, false]);
  });

  it("keeps each client's allowance apart", () => {
    const time = clock();
    const buckets = new TokenBuckets({ perMinute: 1, burst: 1, now: time.now });
    expect(buckets.take("198.51.100.1").allowed).toBe(true);
    expect(buckets.take("198.51.100.1").allowed).toBe(false);
    expect(buckets.take("2001:db8:1:2::/64").allowed).toBe(true);
  });

  it("peeks without spending", () => {
    const time = clock();
    const buckets = new TokenBuckets({ perMinute: 60, burst: 1, now: time.now });
    expect(buckets.peek("a")).toBe(true);
    expect(buckets.peek("a")).toBe(true);
    buckets.take("a");
    expect(buckets.peek("a")).toBe(false);
    time.advance(1_000);
    expect(buckets.peek("a")).toBe(true);
  });

  it("is off at 0 per minute", () => {
    const buckets = new TokenBuckets({ perMinute: 0, burst: 1 });
    expect(buckets.enabled).toBe(false);
    for (let i = 0; i < 100; i++) expect(buckets.take("a").allowed).toBe(true);
    expect(buckets.size).toBe(0);
  });

  it("remembers a bounded number of clients, the least recently seen forgotten first", () => {
    const time = clock();
    const buckets = new TokenBuckets({ perMinute: 1, burst: 1, maxClients: 2, now: time.now });
    for (const key of ["a", "b", "c"]) buckets.take(key);
    expect(buckets.size).toBe(2);
    // 'a' was forgotten: it starts full again; 'c' is still spent.
    expect(buckets.take("a").allowed).toBe(true);
    expect(buckets.take("c").allowed).toBe(false);
  });
});
