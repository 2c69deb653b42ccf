import { asc, getTableColumns, getTableName, sql, type Column, type SQL } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../../app/platform/db.server";

/** The columns of `table` but `leftOut`. */
function keptColumns(table: PgTable, leftOut: readonly Column[]) {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).filter(([, column]) => !leftOut.includes(column)),
  );
}

/**
 * Every row of each of `tables` (its columns but `leftOut`), in its primary key's order: what a
 * test compares before and after a request (fingerprint() when it only needs "nothing changed").
 */
export async function readTables<T extends Record<string, PgTable>>(
  db: Database,
  tables: T,
  leftOut: readonly Column[] = [],
): Promise<{ [K in keyof T]: T[K]["$inferSelect"][] }> {
  const rows: Record<string, unknown[]> = {};
  for (const [key, table] of Object.entries(tables)) {
    const config = getTableConfig(table);
    const primary = [
      ...config.columns.filter((column) => column.primary),
      ...config.primaryKeys.flatMap((primaryKey) => primaryKey.columns),
    ];
    rows[key] = await db
      .select(keptColumns(table, leftOut))
      .from(table)
      .orderBy(...primary.map((column) => asc(column)));
  }
  return rows as { [K in keyof T]: T[K]["$inferSelect"][] };
}

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
    const columns = Object.values(keptColumns(table, leftOut));
    const cols = sql.raw(columns.map((c) => `"${c.name}"`).join(", "));
    const name = getTableName(table);
    return sql`(select md5(coalesce(string_agg(r::text, E'\n' order by r::text), ''))
      from (select ${cols} from ${sql.identifier(name)}) r) as ${sql.identifier(name)}`;
  });
  const result = await db.execute(sql`select ${sql.join(parts, sql`, `)}`);
  return result.rows[0] as Record<string, string>;
}
