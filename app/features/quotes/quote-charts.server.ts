import { sql } from "drizzle-orm";
import { QUOTE_RATE_DAYS } from "~/components/admin/charts";
import { db, type Database } from "~/platform/db.server";
import { chartWeeks, rowsOf } from "~/features/desk/contact-charts.server";

/**
 * The dashboard's quote charts: per chart week (Paris time) the quotes sent and the quotes
 * accepted that week (each by its own date), and the acceptance rate of the quotes sent in the
 * last QUOTE_RATE_DAYS days. A quote replaced before any answer is left out of that rate: the
 * buyer could no longer accept it, its replacement counts instead.
 */
export async function quoteCharts(database: Database = db()) {
  const [weekly, rate] = await Promise.all([
    database.execute(sql`
      with weeks as (${chartWeeks}),
      events as (
        select sent_at as at, 1 as sent, 0 as accepted from quotes where sent_at is not null
        union all
        select accepted_at, 0, 1 from quotes where accepted_at is not null
      )
      select weeks.week, coalesce(sum(e.sent), 0)::int as sent,
             coalesce(sum(e.accepted), 0)::int as accepted
      from weeks
      left join events e
        on e.at >= (weeks.start at time zone 'Europe/Paris')
       and e.at < ((weeks.start + interval '1 week') at time zone 'Europe/Paris')
      group by weeks.week
      order by weeks.week`),
    database.execute(sql`
      select count(*)::int as sent, count(accepted_at)::int as accepted
      from quotes
      where sent_at >= now() - ${QUOTE_RATE_DAYS} * interval '1 day'
        and (replaced_at is null or accepted_at is not null)`),
  ]);
  const [totals] = rowsOf(rate);
  const sent = Number(totals?.sent ?? 0);
  const accepted = Number(totals?.accepted ?? 0);
  return {
    weekly: rowsOf(weekly).map((row) => ({
      week: String(row.week),
      sent: Number(row.sent),
      accepted: Number(row.accepted),
    })),
    rate: { days: QUOTE_RATE_DAYS, sent, accepted, rate: sent > 0 ? accepted / sent : null },
  };
}

export type QuoteCharts = Awaited<ReturnType<typeof quoteCharts>>;
