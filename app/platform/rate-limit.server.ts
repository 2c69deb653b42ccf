import { and, eq, gt, lt, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { db, type Database } from "./db.server";
import { rateLimits } from "./schema.server";

// The one per-client limiter (issue 43), with two stores (docs/reliability.md, "Limits that
// apply", says which limit uses which):
// - the database (hitRateLimit, takeAttempt): a fixed window per key, one atomic statement, so the
//   limit holds across every instance. For what must hold whatever instance answers: sign-in,
//   second factor, password reset, the contact form, alerts, mails to a mailbox.
// - this process's memory (TokenBuckets): a token bucket per key in an LRU. For a guard of this
//   process's CPU or of calls this process makes (page renders, quote PDFs, the company register's
//   7 calls a second), where a database round trip per request would cost more than what it
//   guards and each instance's own allowance is the point.
// Both answer a refusal with the seconds to wait (Retry-After).

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

// The memory store (issue 28): each client (a key, from clientSubject) holds up to `burst` tokens,
// refilled at `perMinute`; an expensive answer takes one. In this process only (see above).

/**
 * How long a refusal waits before it is sent. A flood that waits for each answer before asking
 * again (a script, a load tool) then gets a few answers a second per connection instead of taking
 * turns with everyone else's requests; a person who meets the limit barely notices.
 */
export const REFUSAL_PAUSE_MS = 500;

export type TokenBucketOptions = {
  /** Tokens given back per minute; 0 turns the limit off. */
  perMinute: number;
  /** Most tokens a client holds: how many it may spend at once. */
  burst: number;
  /** Clients remembered, least recently seen forgotten first (a forgotten client starts full). */
  maxClients?: number;
  /** Milliseconds (tests move time by hand). */
  now?: () => number;
};

export type Take =
  | { allowed: true }
  /** `first`: the first refusal since this client last had a token (to log once per episode). */
  | { allowed: false; retryAfterSeconds: number; first: boolean };

type Bucket = { tokens: number; at: number; refused: boolean };

export class TokenBuckets {
  private readonly buckets: LRUCache<string, Bucket>;
  private readonly perMs: number;
  private readonly burst: number;
  private readonly now: () => number;

  constructor(options: TokenBucketOptions) {
    this.perMs = options.perMinute / 60_000;
    this.burst = Math.max(1, options.burst);
    this.now = options.now ?? Date.now;
    this.buckets = new LRUCache<string, Bucket>({
      max: options.maxClients ?? 10_000,
      // Untouched this long, a bucket is full again: forgetting it changes nothing.
      ttl: this.perMs > 0 ? Math.ceil(this.burst / this.perMs) : 1,
    });
  }

  get enabled(): boolean {
    return this.perMs > 0;
  }

  /** Whether `key` has a token now, without taking it. */
  peek(key: string): boolean {
    return !this.enabled || this.level(key).tokens >= 1;
  }

  /** Takes one of `key`'s tokens, or says how long until it has one. */
  take(key: string): Take {
    if (!this.enabled) return { allowed: true };
    const bucket = this.level(key);
    if (bucket.tokens >= 1) {
      this.buckets.set(key, { tokens: bucket.tokens - 1, at: bucket.at, refused: false });
      return { allowed: true };
    }
    const first = !bucket.refused;
    this.buckets.set(key, { ...bucket, refused: true });
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000));
    return { allowed: false, retryAfterSeconds, first };
  }

  /** Clients remembered now (tests, diagnostics). */
  get size(): number {
    return this.buckets.size;
  }

  private level(key: string): Bucket {
    const now = this.now();
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: this.burst, at: now, refused: false };
    const tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    return { tokens, at: now, refused: bucket.refused };
  }
}
