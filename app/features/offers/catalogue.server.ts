import { sql } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";
import { appState } from "~/platform/schema.server";

const KEY = "catalogue_version";

/** The channel on which every bump is announced, once committed (http-server/catalogue-watch.ts). */
export const CATALOGUE_CHANNEL = "catalogue_version";

/**
 * The public catalogue's version, shared by every instance through the database. Every write to
 * offers bumps it (inside the same transaction when there is one), which invalidates anything
 * derived from the catalogue: cached pages, ETags, the sitemap. The same statement announces the
 * new version with NOTIFY, which PostgreSQL (and PGlite) deliver to listeners when the transaction
 * commits, and never if it rolls back.
 */
export async function bumpCatalogueVersion(database: Database = db()): Promise<void> {
  await database.execute(sql`
    with bumped as (
      insert into ${appState} (key, value) values (${KEY}, '1')
      on conflict (key) do update
        set value = (${appState}.value::bigint + 1)::text, updated_at = now()
      returning value, updated_at
    )
    select pg_notify(
      ${CATALOGUE_CHANNEL},
      value || ' ' || (extract(epoch from updated_at) * 1000)::bigint
    ) from bumped`);
}

export async function getCatalogueVersion(
  database: Database = db(),
): Promise<{ version: string; updatedAt: Date | null }> {
  // Read on every cacheable request (http-server/page-cache.ts): one plain statement, without the query
  // builder's per-call cost (about ten times less on PGlite).
  const result = await database.execute<{ value: string; updated_at: Date | string }>(
    sql`select value, updated_at from app_state where key = ${KEY}`,
  );
  const row = result.rows[0];
  return row
    ? { version: row.value, updatedAt: new Date(row.updated_at) }
    : { version: "0", updatedAt: null };
}
