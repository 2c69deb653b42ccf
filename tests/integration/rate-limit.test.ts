import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  hitRateLimit,
  peekRateLimit,
  pruneRateLimits,
  resetRateLimit,
} from "../../app/server/rate-limit.server";
import { openTestDatabase, testDatabaseKind } from "../support/database";

let database: Awaited<ReturnType<typeof openTestDatabase>>;

describe(`rate limits (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("allows up to the limit in a window, then refuses with a retry delay", async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit("t:a", 3, 60_000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3].retryAfterSeconds).toBeGreaterThan(0);
    expect(results[3].retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await peekRateLimit("t:a")).count).toBe(4);
  });

  it("counts concurrent hits exactly", async () => {
    await Promise.all(Array.from({ length: 20 }, () => hitRateLimit("t:b", 100, 60_000)));
    expect((await peekRateLimit("t:b")).count).toBe(20);
  });

  it("starts a new window once the old one is over", async () => {
    await hitRateLimit("t:c", 1, 50);
    await new Promise((r) => setTimeout(r, 120));
    expect((await peekRateLimit("t:c")).count).toBe(0);
    expect((await hitRateLimit("t:c", 1, 50)).allowed).toBe(true);
  });

  it("resets and prunes", async () => {
    await hitRateLimit("t:d", 1, 60_000);
    await resetRateLimit("t:d");
    expect((await peekRateLimit("t:d")).count).toBe(0);
    await pruneRateLimits();
  });
});
