// Views of each offer's page per day (issue 42), the CNIL's exempt audience measurement: counted
// by the server for every page served (the page cache's hits too), never per visitor (no cookie, no
// address, no identifier), aggregated per offer and day, kept 25 months at most.
import { and, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { parisDay } from "~/lib/dates";
import { db, type Database } from "~/platform/db.server";
import { log } from "~/platform/log.server";
import { contactRequests, offers, offerViews } from "~/platform/schema.server";

/** How long counted views wait in memory before they are added to the table (one write per batch). */
export const OFFER_VIEWS_FLUSH_MS = 5_000;
/** The longest the daily counts are kept (the CNIL's limit for audience measurement). */
export const OFFER_VIEWS_RETENTION_MONTHS = 25;

/** Views not yet written, by day and slug: a cached page answers without touching the database. */
const pending = new Map<string, { day: string; slug: string; views: number }>();
let timer: NodeJS.Timeout | undefined;
/** The Paris day of the last minute asked: formatting a date takes longer than a cached hit's answer. */
let dayOfMinute: { minute: number; day: string } | undefined;

/** The Paris day of `at`, worked out once a minute (Paris changes day on a UTC minute). */
function viewDay(at: Date): string {
  const minute = Math.floor(at.getTime() / 60_000);
  if (dayOfMinute?.minute !== minute) dayOfMinute = { minute, day: parisDay(at) };
  return dayOfMinute.day;
}

/** Counts one view of the offer page at `slug` (a page served, not a robot's). */
export function countOfferView(slug: string, at: Date = new Date()): void {
  const day = viewDay(at);
  const key = `${day} ${slug}`;
  const entry = pending.get(key);
  if (entry) entry.views += 1;
  else pending.set(key, { day, slug, views: 1 });
  timer ??= setTimeout(() => {
    timer = undefined;
    flushOfferViews().catch((error: unknown) => log.warn("offer views not saved", { error }));
  }, OFFER_VIEWS_FLUSH_MS).unref();
}

/**
 * Adds the views counted in memory to offer_views, one statement per offer and day (an addition,
 * so that every instance adds its own). Views of a slug no offer has are dropped; on a database
 * error they are kept for the next flush.
 */
export async function flushOfferViews(database: Database = db()): Promise<void> {
  const batch = [...pending.values()];
  pending.clear();
  for (const [i, { day, slug, views }] of batch.entries()) {
    try {
      await database.execute(sql`
        insert into ${offerViews} (offer_id, day, views)
        select ${offers.id}, ${day}::date, ${views} from ${offers} where ${offers.slug} = ${slug}
        on conflict (offer_id, day) do update set views = ${offerViews.views} + excluded.views`);
    } catch (error) {
      for (const kept of batch.slice(i)) {
        const key = `${kept.day} ${kept.slug}`;
        const entry = pending.get(key);
        if (entry) entry.views += kept.views;
        else pending.set(key, { ...kept });
      }
      throw error;
    }
  }
}

/** Offers' views and requests over the last `days` days (Paris days, today included). */
export async function offerAudience(
  offerIds: number[],
  days = 30,
  database: Database = db(),
): Promise<Map<number, { views: number; requests: number }>> {
  const audience = new Map<number, { views: number; requests: number }>();
  if (offerIds.length === 0) return audience;
  const since = parisDay(new Date(Date.now() - (days - 1) * 24 * 3600 * 1000));
  const [views, requests] = await Promise.all([
    database
      .select({ offerId: offerViews.offerId, views: sql<number>`sum(${offerViews.views})::int` })
      .from(offerViews)
      .where(and(inArray(offerViews.offerId, offerIds), gte(offerViews.day, since)))
      .groupBy(offerViews.offerId),
    database
      .select({ offerId: contactRequests.offerId, requests: sql<number>`count(*)::int` })
      .from(contactRequests)
      .where(
        and(
          inArray(contactRequests.offerId, offerIds),
          isNotNull(contactRequests.offerId),
          eq(contactRequests.suspectedSpam, false),
          gte(contactRequests.createdAt, sql`${since}::date`),
        ),
      )
      .groupBy(contactRequests.offerId),
  ]);
  for (const id of offerIds) audience.set(id, { views: 0, requests: 0 });
  for (const row of views) audience.get(row.offerId)!.views = row.views;
  for (const row of requests) audience.get(row.offerId!)!.requests = row.requests;
  return audience;
}

/** Deletes the daily counts older than 25 months (the daily purge). */
export async function purgeOfferViews(database: Database = db()): Promise<number> {
  const deleted = await database
    .delete(offerViews)
    .where(
      lt(
        offerViews.day,
        sql`(now() at time zone 'Europe/Paris')::date - ${`${OFFER_VIEWS_RETENTION_MONTHS} months`}::interval`,
      ),
    )
    .returning({ offerId: offerViews.offerId });
  return deleted.length;
}
