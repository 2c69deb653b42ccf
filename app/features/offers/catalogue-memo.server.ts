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

/**
 * The catalogue version that memos of catalogue reads follow (`memo(load, { max, version:
 * catalogueVersion })`, ~/lib/memo): undefined without a registered reader, so that nothing is kept.
 */
export function catalogueVersion(): string | undefined | Promise<string> {
  const reader = slot.__catalogueMemoReader;
  if (!reader) return undefined;
  return reader.peek?.()?.version ?? reader().then(({ version }) => version);
}
