import { LRUCache } from "lru-cache";

// A per-client allowance kept in memory (issue 28): each client (a key, from clientSubject) holds
// up to `burst` tokens, refilled at `perMinute`; an expensive answer takes one. In this process
// only: what it protects is this process's CPU, and a database round trip per request would cost
// more than most of what it guards (docs/reliability.md, "Limits that apply").

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
