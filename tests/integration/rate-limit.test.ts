import { like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  hitRateLimit,
  peekRateLimit,
  pruneRateLimits,
  resetRateLimit,
  takeAttempt,
} from "../../app/server/rate-limit.server";
import { rateLimits } from "../../app/server/schema.server";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase();

async function keys(prefix: string) {
  const rows = await database.db
    .select({ key: rateLimits.key })
    .from(rateLimits)
    .where(like(rateLimits.key, `${prefix}%`));
  return rows.map((r) => r.key).sort();
}

describe(`rate limits (${testDatabaseKind})`, () => {
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
    expect(await keys("t:d")).toEqual([]);
  });

  it("prunes only the windows that ended more than a day ago", async () => {
    await database.db.insert(rateLimits).values([
      { key: "t:e:old", count: 5, resetAt: sql`now() - interval '25 hours'` },
      { key: "t:e:recent", count: 5, resetAt: sql`now() - interval '23 hours'` },
      { key: "t:e:live", count: 5, resetAt: sql`now() + interval '1 minute'` },
    ]);
    await pruneRateLimits();
    expect(await keys("t:e:")).toEqual(["t:e:live", "t:e:recent"]);
  });

  it("takes an attempt under every limit, and counts nothing once one is reached", async () => {
    const limits = [
      { key: "t:f:ip", limit: 3, windowMs: 60_000 },
      { key: "t:f:email", limit: 2, windowMs: 60_000 },
    ];
    expect(await takeAttempt(limits)).toBeUndefined();
    expect(await takeAttempt(limits)).toBeUndefined();
    expect((await peekRateLimit("t:f:ip")).count).toBe(2);
    // The second limit is reached: refused at once with its wait, neither counter moves.
    const refused = await takeAttempt(limits);
    expect(refused?.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused?.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await peekRateLimit("t:f:ip")).count).toBe(2);
    expect((await peekRateLimit("t:f:email")).count).toBe(2);
  });
});
