import { freshRead } from "../app/platform/fresh-read";
import { CATALOGUE_CHANNEL, getCatalogueVersion } from "../app/features/offers/catalogue.server";
import type { DatabaseHandle } from "../app/platform/db.server";
import type { CatalogueReader, CatalogueState } from "./page-cache";

/**
 * How the page cache learns the catalogue version, so that a request arriving after an offer write
 * has committed never gets a page rendered before it:
 *
 * - PostgreSQL (several instances may write): each request's check is a fresh read of the version
 *   (`freshRead`: concurrent requests share one primary-key lookup, never an answer older than
 *   themselves). No window at all, for one small query per batch of requests.
 * - PGlite (one process owns the database, so every write is this process's): the version is kept
 *   in memory and replaced by the NOTIFY that bumpCatalogueVersion sends, which PGlite delivers
 *   while it commits, before the writer's `await` returns. No query per request.
 */
export function catalogueReader(handle: DatabaseHandle): CatalogueReader {
  if (handle.kind !== "pglite") return freshRead(() => getCatalogueVersion(handle.db));

  const { client } = handle;
  let known: CatalogueState | undefined;
  let current: Promise<CatalogueState> | undefined;
  const start = (): Promise<CatalogueState> => {
    const reading = (async () => {
      await client.listen(CATALOGUE_CHANNEL, (payload) => {
        const [version, ms] = payload.split(" ");
        known = { version, updatedAt: new Date(Number(ms)) };
        current = Promise.resolve(known);
      });
      const state = await getCatalogueVersion(handle.db);
      // A notification may have arrived while reading: it is newer.
      known ??= state;
      return known;
    })();
    // A failed start is retried by the next request.
    reading.catch(() => {
      if (current === reading) current = undefined;
    });
    return reading;
  };
  const read = (() => (current ??= start())) as CatalogueReader;
  read.peek = () => known;
  return read;
}
