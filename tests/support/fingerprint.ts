import { getTableColumns, getTableName, sql, type Column, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../../app/platform/db.server";

/**
 * What reading every row of `tables` would give, as one exact digest per table in one query: the
 * md5 of the table's rows (its columns but `leftOut`, as PostgreSQL's text of each row) in a
 * stable order. Two fingerprints are equal exactly when the rows read would be equal (short of an
 * md5 collision), so a test that must change nothing compares them instead of fetching every row
 * twice.
 */
export async function fingerprint(
  db: Database,
  tables: readonly PgTable[],
  leftOut: readonly Column[] = [],
): Promise<Record<string, string>> {
  const parts: SQL[] = tables.map((table) => {
    const columns = Object.values(getTableColumns(table)).filter((c) => !leftOut.includes(c));
    const cols = sql.raw(columns.map((c) => `"${c.name}"`).join(", "));
    const name = getTableName(table);
    return sql`(select md5(coalesce(string_agg(r::text, E'\n' order by r::text), ''))
      from (select ${cols} from ${sql.identifier(name)}) r) as ${sql.identifier(name)}`;
  });
  const result = await db.execute(sql`select ${sql.join(parts, sql`, `)}`);
  return result.rows[0] as Record<string, string>;
}
