import { and, eq, gt, lt, sql } from "drizzle-orm";
import { db, type Database } from "./db.server";
import { rateLimits } from "./schema.server";

export type RateLimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

/**
 * Counts one event for `key` in a fixed window and says whether it stays within `limit`.
 * One atomic statement in the database, so every instance shares the same counters.
 */
export async function hitRateLimit(
  key: string,
  limit: number,
  windowMs: number,
  database: Database = db(),
): Promise<RateLimitResult> {
  const windowEnd = sql`now() + ${`${Math.ceil(windowMs)} milliseconds`}::interval`;
  const [row] = await database
    .insert(rateLimits)
    .values({ key, count: 1, resetAt: windowEnd })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= now() then ${windowEnd} else ${rateLimits.resetAt} end`,
      },
    })
    .returning({
      count: rateLimits.count,
      retryAfter: sql<number>`greatest(1, ceil(extract(epoch from (${rateLimits.resetAt} - now()))))::int`,
    });
  return { allowed: row.count <= limit, count: row.count, retryAfterSeconds: row.retryAfter };
}

/** The current count for `key` without counting anything (0 when the window is over). */
export async function peekRateLimit(
  key: string,
  database: Database = db(),
): Promise<{ count: number; retryAfterSeconds: number }> {
  const [row] = await database
    .select({
      count: rateLimits.count,
      retryAfter: sql<number>`greatest(1, ceil(extract(epoch from (${rateLimits.resetAt} - now()))))::int`,
      live: sql<boolean>`${rateLimits.resetAt} > now()`,
    })
    .from(rateLimits)
    .where(eq(rateLimits.key, key));
  return row?.live
    ? { count: row.count, retryAfterSeconds: row.retryAfter }
    : { count: 0, retryAfterSeconds: 0 };
}

export async function resetRateLimit(key: string, database: Database = db()): Promise<void> {
  await database.delete(rateLimits).where(eq(rateLimits.key, key));
}

/**
 * Gives back one counted attempt of a live window: for limits counted before the work is done
 * (concurrent attempts cannot overshoot), once the attempt turns out not to be one they limit.
 */
export async function refundRateLimit(key: string, database: Database = db()): Promise<void> {
  await database
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, sql`now()`)));
}

/** Drops windows that ended more than a day ago (called at start-up). */
export async function pruneRateLimits(database: Database = db()): Promise<void> {
  await database.delete(rateLimits).where(lt(rateLimits.resetAt, sql`now() - interval '1 day'`));
}

/**
 * Counts one attempt under each limit, in order, unless one is already reached: a client over a
 * limit is answered at once, without counting or doing the work (hashing a password...).
 * Gives the wait when refused, undefined when the attempt may go on.
 */
export async function takeAttempt(
  limits: readonly { key: string; limit: number; windowMs: number }[],
  database: Database = db(),
): Promise<{ retryAfterSeconds: number } | undefined> {
  for (const { key, limit } of limits) {
    const current = await peekRateLimit(key, database);
    if (current.count >= limit) return { retryAfterSeconds: current.retryAfterSeconds };
  }
  for (const { key, limit, windowMs } of limits) {
    const hit = await hitRateLimit(key, limit, windowMs, database);
    if (!hit.allowed) return { retryAfterSeconds: hit.retryAfterSeconds };
  }
  return undefined;
}
