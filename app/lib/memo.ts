import { LRUCache } from "lru-cache";

/**
 * The one memo (`lru-cache`): `make`'s value kept by its arguments, so that no key is written by
 * hand. The key is derived from the arguments: a lone string argument is its own key (HTML, a
 * search term, a slug: no copy), anything else is keyed by the arguments' JSON. The arguments
 * must therefore say everything the value depends on, in a fixed list (a memo's function is not
 * called with a lone string one time and other arguments the next).
 *
 * - `max` entries at most, the least recently used out first; `ttlMs`, if set, the longest an
 *   entry is kept.
 * - A promise is kept as it is: calls for one key while it is pending share it (computed once),
 *   and a rejected one is forgotten (the next call tries again).
 * - `version`, if set, is asked on every call: the entries of another version are forgotten, and
 *   while it answers undefined (no source of versions: tests, scripts) nothing is kept. The memo
 *   then answers a promise.
 *
 * Values are shared by every caller: callers never change them. Values are never undefined.
 */
export type MemoOptions = {
  max: number;
  ttlMs?: number;
  /** Milliseconds for ttlMs (tests move time by hand); performance.now() by default. */
  now?: () => number;
};

export type Version = () => string | undefined | Promise<string | undefined>;

export type Memo<A extends unknown[], V> = ((...args: A) => V) & {
  /** Forgets every entry. */
  clear(): void;
  /** Entries kept now. */
  readonly size: number;
};

export function memo<A extends unknown[], V extends NonNullable<unknown>>(
  make: (...args: A) => V,
  options: MemoOptions,
): Memo<A, V>;
export function memo<A extends unknown[], V>(
  make: (...args: A) => Promise<V>,
  options: MemoOptions & { version: Version },
): Memo<A, Promise<V>>;
export function memo<A extends unknown[], V extends NonNullable<unknown>>(
  make: (...args: A) => V,
  options: MemoOptions & { version?: Version },
): Memo<A, V | Promise<Awaited<V>>> {
  const kept = new LRUCache<string, V>({
    max: options.max,
    ttl: options.ttlMs,
    // A clock given is read on every check (lru-cache otherwise reuses a reading for 1 ms).
    ...(options.now && { perf: { now: options.now }, ttlResolution: 0 }),
  });
  const keep = (args: A): V => {
    const key = args.length === 1 && typeof args[0] === "string" ? args[0] : JSON.stringify(args);
    const found = kept.get(key);
    if (found !== undefined) return found;
    const value = make(...args);
    kept.set(key, value);
    if (value instanceof Promise) {
      value.catch(() => kept.peek(key) === value && kept.delete(key));
    }
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
    clear: { value: () => kept.clear() },
    size: { get: () => kept.size },
  }) as Memo<A, V | Promise<Awaited<V>>>;
}
