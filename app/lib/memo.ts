import { LRUCache } from "lru-cache";

/**
 * The one memo (`lru-cache`): `make`'s value kept by its arguments, so that no key is written by
 * hand. The key is derived from the arguments: a lone string argument is its own key (HTML, a
 * search term, a slug: no copy), anything else is keyed by the arguments' JSON. The arguments
 * must therefore say everything the value depends on, in a fixed list (a memo's function is not
 * called with a lone string one time and other arguments the next).
 *
 * - `max` entries at most, the least recently used out first; `ttlMs`, if set, the longest an
 *   entry is kept; `ttlOf`, if set, an entry's own time to live from its value (a company not
 *   found is asked again sooner than one found); `maxSize` with `sizeOf`, a bound on the values'
 *   total size too (bytes of PDFs). For a promise, these are read from its value once resolved.
 * - A promise is kept as it is: calls for one key while it is pending share it (computed once),
 *   and a rejected one is forgotten (the next call tries again).
 * - `version`, if set, is asked on every call: the entries of another version are forgotten, and
 *   while it answers undefined (no source of versions: tests, scripts) nothing is kept. The memo
 *   then answers a promise.
 *
 * Values are shared by every caller: callers never change them. Values are never undefined.
 */
export type MemoOptions<V = unknown> = {
  max: number;
  ttlMs?: number;
  /** The entry's time to live from its (resolved) value; undefined: ttlMs. */
  ttlOf?: (value: V) => number | undefined;
  /** The most the entries' sizes (sizeOf) add up to, the least recently used out first. */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** Milliseconds for ttlMs (tests move time by hand); performance.now() by default. */
  now?: () => number;
};

export type Version = () => string | undefined | Promise<string | undefined>;

export type Memo<A extends unknown[], V> = ((...args: A) => V) & {
  /** The value kept for these arguments, without making it (a memo without a version). */
  peek(...args: A): V | undefined;
  /** Forgets every entry. */
  clear(): void;
  /** Entries kept now. */
  readonly size: number;
};

export function memo<A extends unknown[], V extends NonNullable<unknown>>(
  make: (...args: A) => V,
  options: MemoOptions<Awaited<V>>,
): Memo<A, V>;
export function memo<A extends unknown[], V>(
  make: (...args: A) => Promise<V>,
  options: MemoOptions<V> & { version: Version },
): Memo<A, Promise<V>>;
export function memo<A extends unknown[], V extends NonNullable<unknown>>(
  make: (...args: A) => V,
  options: MemoOptions<Awaited<V>> & { version?: Version },
): Memo<A, V | Promise<Awaited<V>>> {
  const { ttlOf, sizeOf } = options;
  const kept = new LRUCache<string, V>({
    max: options.max,
    ttl: options.ttlMs,
    maxSize: options.maxSize,
    // A clock given is read on every check (lru-cache otherwise reuses a reading for 1 ms).
    ...(options.now && { perf: { now: options.now }, ttlResolution: 0 }),
  });
  const keyOf = (args: A) =>
    args.length === 1 && typeof args[0] === "string" ? args[0] : JSON.stringify(args);
  /** lru-cache's options for a value: its size (at least 1) and its own time to live. */
  const entry = (value: Awaited<V>) => ({
    ...(options.maxSize !== undefined && { size: Math.max(1, sizeOf?.(value) ?? 1) }),
    ...(ttlOf?.(value) !== undefined && { ttl: ttlOf(value) }),
  });
  const keep = (args: A): V => {
    const key = keyOf(args);
    const found = kept.get(key);
    if (found !== undefined) return found;
    const value = make(...args);
    if (!(value instanceof Promise)) {
      kept.set(key, value, entry(value as Awaited<V>));
      return value;
    }
    // Pending: kept as it is (size 1), then again with its value's size and time to live.
    kept.set(key, value, options.maxSize !== undefined ? { size: 1 } : {});
    value.then(
      (resolved: Awaited<V>) => {
        if (!(ttlOf || sizeOf) || kept.peek(key) !== value) return;
        // Set again as a new entry: lru-cache keeps the size of a value set over itself.
        kept.delete(key);
        kept.set(key, value, entry(resolved));
      },
      () => kept.peek(key) === value && kept.delete(key),
    );
    return value;
  };
  const { version } = options;
  let seen: string | undefined;
  const call = version
    ? async (...args: A): Promise<Awaited<V>> => {
        const answer = version();
        const current = typeof answer === "object" ? await answer : answer;
        if (current === undefined) return make(...args) as Awaited<V>;
        if (current !== seen) {
          kept.clear();
          seen = current;
        }
        return keep(args) as Awaited<V>;
      }
    : (...args: A) => keep(args);
  return Object.defineProperties(call, {
    peek: { value: (...args: A) => kept.get(keyOf(args)) },
    clear: { value: () => kept.clear() },
    size: { get: () => kept.size },
  }) as Memo<A, V | Promise<Awaited<V>>>;
}
