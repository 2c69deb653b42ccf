import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "./db.server";

/**
 * The rows of `table` matching `where`, deleted (with what cascades from them) or, on a dry run,
 * only counted: the retention purge's one step, whichever table it empties.
 */
export async function purgeRows(
  database: Database,
  table: PgTable,
  where: SQL,
  dryRun = false,
): Promise<number> {
  const statement = dryRun
    ? sql`select count(*)::int as n from ${table} where ${where}`
    : sql`with gone as (delete from ${table} where ${where} returning 1) select count(*)::int as n from gone`;
  const result = await database.execute<{ n: number }>(statement);
  return Number(result.rows[0]?.n ?? 0);
}
