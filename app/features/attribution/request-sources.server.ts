// The sources requests came from (issue 42), as the desk's filter offers them: the most frequent
// first, with their counts (suspected spam left out, as in the list).
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";
import { contactRequests } from "~/platform/schema.server";

/** The filter's choices: at most this many sources. */
const SOURCES_SHOWN = 50;

export async function requestSources(
  database: Database = db(),
): Promise<{ source: string; count: number }[]> {
  const rows = await database
    .select({ source: contactRequests.source, count: sql<number>`count(*)::int` })
    .from(contactRequests)
    .where(and(isNotNull(contactRequests.source), eq(contactRequests.suspectedSpam, false)))
    .groupBy(contactRequests.source)
    .orderBy(desc(sql`count(*)`), contactRequests.source)
    .limit(SOURCES_SHOWN);
  return rows.map((row) => ({ source: row.source!, count: row.count }));
}

/** Requests per source over the last `days` days (the dashboard's chart): the largest first. */
export async function requestsBySource(
  days = 30,
  database: Database = db(),
): Promise<{ source: string | null; count: number }[]> {
  return database
    .select({ source: contactRequests.source, count: sql<number>`count(*)::int` })
    .from(contactRequests)
    .where(
      and(
        eq(contactRequests.suspectedSpam, false),
        sql`${contactRequests.createdAt} >= now() - ${days} * interval '1 day'`,
      ),
    )
    .groupBy(contactRequests.source)
    .orderBy(desc(sql`count(*)`), contactRequests.source)
    .limit(8);
}
