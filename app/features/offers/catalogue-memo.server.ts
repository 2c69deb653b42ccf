/**
 * Reads of the public catalogue kept in memory for as long as its version stands (decision 006:
 * every write to offers, datacenters or the lease scale bumps it). The version comes from the page
 * cache's reader (http-server/catalogue-watch.ts, registered by http-server/http.ts): on the embedded
 * database the NOTIFY-fed value, no query; on PostgreSQL a fresh read, so that a request arriving
 * after a write never gets what was read before it, on any instance. Without a registered reader
 * (tests, scripts, development) every call reads the database.
 *
 * Values are shared by every request that asks: callers never change them.
 */
type VersionReader = (() => Promise<{ version: string }>) & {
  peek?: () => { version: string } | undefined;
};

// On globalThis: the Express entry and the React Router build are two module graphs.
const slot = globalThis as typeof globalThis & { __catalogueMemoReader?: VersionReader };

export function setCatalogueMemoReader(reader: VersionReader | undefined): void {
  slot.__catalogueMemoReader = reader;
}

/** `load` once per key and catalogue version; at most `max` keys, the oldest out first. */
export function byCatalogue<T>(
  load: (key: string) => Promise<T>,
  max = 1000,
): (key?: string) => Promise<T> {
  let version: string | undefined;
  let kept = new Map<string, Promise<T>>();
  return async (key = "") => {
    const reader = slot.__catalogueMemoReader;
    if (!reader) return load(key);
    const current = reader.peek?.()?.version ?? (await reader()).version;
    if (current !== version) {
      version = current;
      kept = new Map();
    }
    const found = kept.get(key);
    if (found) return found;
    const map = kept;
    const loading = load(key);
    map.set(key, loading);
    if (map.size > max) map.delete(map.keys().next().value!);
    // A failure (the database unreachable) is not kept.
    loading.catch(() => map.get(key) === loading && map.delete(key));
    return loading;
  };
}
