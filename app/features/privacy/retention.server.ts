import { sql } from "drizzle-orm";
import { SPAM_RETENTION_DAYS } from "~/platform/retention";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { pruneRateLimits } from "~/platform/rate-limit.server";
import { prunePasswordResets } from "~/features/accounts/password-reset.server";
import { purgeJournal } from "~/platform/journal.server";
import { purgeSignedDocuments } from "~/platform/signed-documents.server";
import { purgeUnattached } from "~/features/conversation/unattached.server";
import { purgeAlerts } from "~/features/alerts/alerts.server";
import { purgeSavedSearches } from "~/features/saved-searches/saved-searches.server";
import { purgeOfferViews } from "~/features/attribution/offer-views.server";
import { deleteContactRequests, NO_ROWS, type DeletionCounts } from "./request-deletion.server";
import { appState } from "~/platform/schema.server";

export type PurgeResult = {
  retentionMonths: number;
  dryRun: boolean;
  /** Requests whose last activity is older than the retention period. */
  expired: DeletionCounts;
  /** Suspected spam older than SPAM_RETENTION_DAYS. */
  spam: DeletionCounts;
};

/**
 * Requests per statement: each batch is its own short transaction, so purging 100,000 requests
 * never holds one huge transaction (locks, WAL, replication lag) on PostgreSQL.
 */
export const PURGE_BATCH_SIZE = 1_000;

function add(a: DeletionCounts, b: DeletionCounts): DeletionCounts {
  return {
    requests: a.requests + b.requests,
    notes: a.notes + b.notes,
    statusChanges: a.statusChanges + b.statusChanges,
    mails: a.mails + b.mails,
    quotes: a.quotes + b.quotes,
    messages: a.messages + b.messages,
    documents: a.documents + b.documents,
  };
}

/**
 * Deletes the contact requests past their retention, with their notes, history, mails and quotes
 * (a quote sent or answered is activity: it moves updated_at, so a request goes with its quotes;
 * what a buyer signed stays in signed_documents, purged on its own basis by runDailyPurge):
 * - any request whose last activity (updated_at: creation, status change, note) is older than
 *   `retentionMonths` calendar months;
 * - suspected spam whose last activity is older than SPAM_RETENTION_DAYS days.
 * The two sets do not overlap (old spam is counted as spam). Both limits are taken once, from the
 * database's clock, at the start. `shouldStop` is asked between batches (server shutdown).
 */
export async function purgeContactRequests(
  options: {
    retentionMonths?: number;
    dryRun?: boolean;
    batchSize?: number;
    shouldStop?: () => boolean;
  } = {},
  database: Database = db(),
): Promise<PurgeResult> {
  const retentionMonths = options.retentionMonths ?? env().RETENTION_MONTHS;
  const dryRun = options.dryRun ?? false;
  const batchSize = options.batchSize ?? PURGE_BATCH_SIZE;
  const limits = await database.execute<{ expired_before: string; spam_before: string }>(sql`
    select (now() - make_interval(months => ${retentionMonths}::int))::text as expired_before,
           (now() - make_interval(days => ${SPAM_RETENTION_DAYS}::int))::text as spam_before
  `);
  const { expired_before, spam_before } = limits.rows[0];
  const conditions = {
    expired: sql`not suspected_spam and updated_at < ${expired_before}::timestamptz`,
    spam: sql`suspected_spam and updated_at < ${spam_before}::timestamptz`,
  };
  const result: PurgeResult = { retentionMonths, dryRun, expired: NO_ROWS, spam: NO_ROWS };
  for (const kind of ["expired", "spam"] as const) {
    if (dryRun) {
      result[kind] = await deleteContactRequests(conditions[kind], { dryRun }, database);
      continue;
    }
    for (;;) {
      if (options.shouldStop?.()) return result;
      const batch = await deleteContactRequests(conditions[kind], { limit: batchSize }, database);
      result[kind] = add(result[kind], batch);
      if (batch.requests < batchSize) break;
    }
  }
  return result;
}

const CLAIM_KEY = "contacts_purge";
/** How often each instance asks whether the day's purge is due. */
export const PURGE_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** Less than a day, so that hourly checks do not drift the purge later every day. */
const PURGE_EVERY = "23 hours";

/**
 * Claims the day's purge for this instance: a row of app_state whose updated_at is the last run.
 * One statement, so of several instances checking at once exactly one gets it (the others wait on
 * the row's lock, then see it fresh); a restart does not purge again the same day.
 */
async function claimDailyPurge(database: Database): Promise<boolean> {
  const claimed = await database.execute(sql`
    insert into ${appState} (key, value, updated_at) values (${CLAIM_KEY}, 'running', now())
    on conflict (key) do update set value = 'running', updated_at = now()
      where ${appState}.updated_at < now() - ${PURGE_EVERY}::interval
    returning key
  `);
  return claimed.rows.length > 0;
}

/**
 * The server's own daily purge: runs it if no instance did in the last day, and drops the rate-limit
 * counters of windows over for a day. Logs counts only.
 * On failure the claim is dropped, so that the next check (an hour later, on any instance) retries.
 */
export async function runDailyPurge(
  options: { shouldStop?: () => boolean } = {},
  database: Database = db(),
): Promise<PurgeResult | undefined> {
  if (!(await claimDailyPurge(database))) return undefined;
  try {
    const result = await purgeContactRequests({ shouldStop: options.shouldStop }, database);
    // The contact form's counters are keyed by client IP: old windows go too (privacy page).
    await pruneRateLimits(database);
    // Password-reset links a day past their end, with their mails (also pruned at each request).
    await prunePasswordResets(database);
    // The admin journal past AUDIT_RETENTION_MONTHS (the one delete its trigger allows).
    const journalDeleted = await purgeJournal(undefined, database);
    // Availability alerts (issue 30): unconfirmed after 7 days, confirmed after 6 months.
    const alerts = await purgeAlerts({}, database);
    // Saved searches (issue 42): unconfirmed after 7 days, 6 months without a new match.
    const savedSearches = await purgeSavedSearches({}, database);
    // Signed quotes (issue 40) on their own basis: SIGNED_QUOTE_RETENTION_YEARS from signature.
    const signedDocumentsDeleted = await purgeSignedDocuments(database);
    // Messages read from the mailbox that no one attached to a request (issue 40), after 90 days.
    const unattachedDeleted = await purgeUnattached(database);
    // Views per offer and day (issue 42) past 25 months, the audience measurement's limit.
    const offerViewsDeleted = await purgeOfferViews(database);
    await database.execute(
      sql`update ${appState} set value = ${JSON.stringify({ expired: result.expired, spam: result.spam })} where key = ${CLAIM_KEY}`,
    );
    log.info("contact requests purged", {
      retentionMonths: result.retentionMonths,
      expired: result.expired,
      spam: result.spam,
      journalDeleted,
      alerts,
      savedSearches,
      signedDocumentsDeleted,
      unattachedDeleted,
      offerViewsDeleted,
    });
    return result;
  } catch (error) {
    await database
      .execute(sql`delete from ${appState} where key = ${CLAIM_KEY}`)
      .catch(() => undefined);
    throw error;
  }
}

/**
 * Checks shortly after start, then every hour, whether the day's purge is due. The timers do not
 * keep the process alive; the returned function stops them and ends a running purge at its next
 * batch (called on shutdown, before the database closes).
 */
export function startPurgeSchedule(
  options: { firstCheckMs?: number; intervalMs?: number } = {},
): () => void {
  let stopped = false;
  let running = false;
  const check = () => {
    if (stopped || running) return;
    running = true;
    runDailyPurge({ shouldStop: () => stopped })
      .catch((error: unknown) => {
        if (!stopped) log.error("contact requests purge failed", { error });
      })
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(check, options.firstCheckMs ?? 60_000);
  const every = setInterval(check, options.intervalMs ?? PURGE_CHECK_INTERVAL_MS);
  first.unref();
  every.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
  };
}
