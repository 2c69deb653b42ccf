import { eq, sql } from "drizzle-orm";
import { db, type Database } from "./db.server";
import { appState } from "./schema.server";

const KEY = "catalogue_version";

/**
 * The public catalogue's version, shared by every instance through the database. Every write to
 * offers bumps it (inside the same transaction when there is one), which invalidates anything
 * derived from the catalogue: cached pages, ETags, the sitemap.
 */
export async function bumpCatalogueVersion(database: Database = db()): Promise<void> {
  await database
    .insert(appState)
    .values({ key: KEY, value: "1" })
    .onConflictDoUpdate({
      target: appState.key,
      set: { value: sql`(${appState.value}::bigint + 1)::text`, updatedAt: sql`now()` },
    });
}

export async function getCatalogueVersion(
  database: Database = db(),
): Promise<{ version: string; updatedAt: Date | null }> {
  const [row] = await database
    .select({ value: appState.value, updatedAt: appState.updatedAt })
    .from(appState)
    .where(eq(appState.key, KEY));
  return row ? { version: row.value, updatedAt: row.updatedAt } : { version: "0", updatedAt: null };
}
