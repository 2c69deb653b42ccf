import { like, sql } from "drizzle-orm";
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import {
  hitRateLimit,
  peekRateLimit,
  pruneRateLimits,
  resetRateLimit,
  takeAttempt,
} from "../../app/platform/rate-limit.server";
import { rateLimits, users } from "../../app/platform/schema.server";
import { renderLimit } from "../../http-server/render-limit";
import { sessionCookieFor } from "../support/admin";
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

// Issue 28: the per-client limit of page renders on Express-like requests (the built server under
// a flood: tests/system/quote.test.ts). Only its session lookup uses the database.
function request(path: string, ip: string, extra: { method?: string; cookie?: string } = {}) {
  const headers = extra.cookie ? { cookie: extra.cookie } : {};
  return { method: extra.method ?? "GET", path, ip, headers } as unknown as Request;
}

describe(`the render limit in memory, http-server/render-limit.ts (${testDatabaseKind})`, () => {
  it("refuses a client past its burst with the French 429 page, and no one else", async () => {
    const limit = renderLimit({ perMinute: 60, burst: 2, pauseMs: 0 });
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await limit(request(`/offers?q=${i}`, "198.51.100.7"), "r"));
    expect(answers.slice(0, 2)).toEqual([undefined, undefined]);
    const refused = answers[2]!;
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.text()).toContain("Vous avez demandé beaucoup de pages en peu de temps");
    expect(await limit(request("/offers?q=x", "198.51.100.8"), "r")).toBeUndefined();
  });

  it("counts an IPv6 client by its /64", async () => {
    const limit = renderLimit({ perMinute: 60, burst: 1, pauseMs: 0 });
    expect(await limit(request("/", "2001:db8:1:2::1"), "r")).toBeUndefined();
    expect((await limit(request("/", "2001:db8:1:2:ffff::9"), "r"))?.status).toBe(429);
    expect(await limit(request("/", "2001:db8:1:3::1"), "r")).toBeUndefined();
  });

  it("leaves the admin area, the quote PDF and posts to their own limits", async () => {
    const limit = renderLimit({ perMinute: 60, burst: 1, pauseMs: 0 });
    const ip = "198.51.100.9";
    for (const path of ["/admin", "/admin/offers", "/admin.data", "/offers/epyc/devis.pdf"]) {
      for (let i = 0; i < 3; i++) expect(await limit(request(path, ip), "r"), path).toBeUndefined();
    }
    for (let i = 0; i < 3; i++) {
      expect(await limit(request("/contact", ip, { method: "POST" }), "r")).toBeUndefined();
    }
    expect(await limit(request("/administrateur", ip), "r")).toBeUndefined();
    expect((await limit(request("/offers", ip), "r"))?.status).toBe(429);
  });

  it("never refuses a signed-in administrator; a forged session cookie buys nothing", async () => {
    const limit = renderLimit({ perMinute: 60, burst: 1, pauseMs: 0 });
    const ip = "198.51.100.10";
    // No password is checked here: an account without a hash to compute (argon2 costs a second).
    const [admin] = await database.db
      .insert(users)
      .values({ email: "rendu@example.fr", passwordHash: "-" })
      .returning();
    const cookie = await sessionCookieFor(admin.id, database.db);
    for (let i = 0; i < 3; i++) {
      expect(await limit(request(`/offers?q=${i}`, ip, { cookie }), "r")).toBeUndefined();
    }
    const forged = `admin_session=${"A".repeat(43)}`;
    expect((await limit(request("/offers?q=x", ip, { cookie: forged }), "r"))?.status).toBe(429);
  });

  it("is off at 0 per minute", async () => {
    const limit = renderLimit({ perMinute: 0, burst: 1, pauseMs: 0 });
    for (let i = 0; i < 5; i++)
      expect(await limit(request("/offers", "198.51.100.11"), "r")).toBeUndefined();
  });
});
