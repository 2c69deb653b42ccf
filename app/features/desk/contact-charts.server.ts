import { sql } from "drizzle-orm";
import { CHART_WEEKS, TOP_OFFER_DAYS, TOP_OFFERS } from "~/components/admin/charts";
import { CONTACT_STATUSES, type ContactStatus } from "~/lib/domain";
import { db, type Database } from "~/platform/db.server";

type Row = Record<string, unknown>;
export const rowsOf = (result: unknown): Row[] =>
  Array.isArray(result) ? (result as Row[]) : ((result as { rows: Row[] }).rows ?? []);

/** Monday of this week and of the first chart week (CHART_WEEKS weeks in all), Paris time. */
const THIS_MONDAY = sql`date_trunc('week', now() at time zone 'Europe/Paris')`;
const FIRST_MONDAY = sql`(${THIS_MONDAY} - ${CHART_WEEKS - 1} * interval '1 week')`;

/** Monday (Paris time) of each of the last CHART_WEEKS weeks, oldest first, as `YYYY-MM-DD`. */
export const chartWeeks = sql`
  select to_char(w, 'YYYY-MM-DD') as week, w as start
  from generate_series(${FIRST_MONDAY}, ${THIS_MONDAY}, interval '1 week') as w`;

/**
 * The first chart week's Monday, 0:00 in Paris, as an instant. An expression of now() (not a
 * subquery of chartWeeks) so that the planner estimates the range and reads it on the index.
 */
const FIRST_WEEK = sql`(${FIRST_MONDAY} at time zone 'Europe/Paris')`;

/**
 * The dashboard's three charts: requests per week by status (not spam), the most requested
 * offers over 30 days, and per week the median hours from a request to its first answer (its
 * first status change or note). Each reads the last weeks' requests on the list's index, never the
 * whole table.
 */
export async function contactCharts(database: Database = db()) {
  const [weekly, offers, answerRows] = await Promise.all([
    database.execute(sql`
      with weeks as (${chartWeeks})
      select weeks.week, r.status::text as status, count(r.id)::int as n
      from weeks
      left join contact_requests r
        on r.suspected_spam = false
       and r.created_at >= (weeks.start at time zone 'Europe/Paris')
       and r.created_at < ((weeks.start + interval '1 week') at time zone 'Europe/Paris')
      group by weeks.week, r.status
      order by weeks.week`),
    database.execute(sql`
      select coalesce(offer_title, '') as title, coalesce(offer_reference, '') as reference,
             count(*)::int as n
      from contact_requests
      where suspected_spam = false and offer_title is not null
        and created_at >= now() - ${TOP_OFFER_DAYS} * interval '1 day'
      group by offer_title, offer_reference
      order by n desc, title
      limit ${TOP_OFFERS}`),
    // One range of the list's index; the first answer is a column of the request (issue 22).
    database.execute(sql`
      select to_char(date_trunc('week', created_at at time zone 'Europe/Paris'), 'YYYY-MM-DD') as week,
             percentile_cont(0.5) within group (
               order by extract(epoch from (first_answered_at - created_at)) / 3600
             ) as median,
             count(first_answered_at)::int as answered
      from contact_requests
      where suspected_spam = false and created_at >= ${FIRST_WEEK}
      group by 1`),
  ]);

  const answers = new Map(rowsOf(answerRows).map((row) => [String(row.week), row]));
  const byWeek = new Map<string, Record<ContactStatus, number>>();
  for (const row of rowsOf(weekly)) {
    const week = String(row.week);
    const counts =
      byWeek.get(week) ??
      (Object.fromEntries(CONTACT_STATUSES.map((s) => [s, 0])) as Record<ContactStatus, number>);
    if (row.status) counts[row.status as ContactStatus] = Number(row.n);
    byWeek.set(week, counts);
  }
  return {
    weekly: [...byWeek].map(([week, counts]) => ({ week, counts })),
    topOffers: rowsOf(offers).map((r) => ({
      title: String(r.title),
      reference: String(r.reference),
      count: Number(r.n),
    })),
    // Every chart week, answered or not (the query returns only weeks with requests).
    firstAnswer: [...byWeek.keys()].map((week) => {
      const row = answers.get(week);
      return {
        week,
        medianHours: row?.median === null || row?.median === undefined ? null : Number(row.median),
        answered: Number(row?.answered ?? 0),
      };
    }),
  };
}

export type ContactCharts = Awaited<ReturnType<typeof contactCharts>>;
