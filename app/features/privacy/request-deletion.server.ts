// Contact requests deleted with everything that goes with them, by the erasure and the retention
// purge alike.
import { sql, type SQL } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";

/**
 * Rows removed (or that would be) with a set of contact requests; notes, history, mails and
 * quotes (issue 29, their acceptance record with them) cascade.
 */
export type DeletionCounts = {
  requests: number;
  notes: number;
  statusChanges: number;
  mails: number;
  quotes: number;
  // Issue 40: the messages exchanged with the buyer on the request's page.
  messages: number;
  // Issue 41: the documents of an LOA file (identity, bank details, accounts).
  documents: number;
};

export const NO_ROWS: DeletionCounts = {
  requests: 0,
  notes: 0,
  statusChanges: 0,
  mails: 0,
  quotes: 0,
  messages: 0,
  documents: 0,
};

export function totalRows(counts: DeletionCounts): number {
  return (
    counts.requests +
    counts.notes +
    counts.statusChanges +
    counts.mails +
    counts.quotes +
    counts.messages +
    counts.documents
  );
}

/**
 * Deletes the contact requests that `where` selects, in one statement (so one transaction), and
 * counts what goes with them. The attached rows are counted from the statement's snapshot, taken
 * before the cascades run. With `limit`, one batch: at most that many requests, skipping rows that
 * another transaction holds (an administrator adding a note right now). With `dryRun`, the same
 * counts and nothing deleted.
 */
export async function deleteContactRequests(
  where: SQL,
  options: { limit?: number; dryRun?: boolean } = {},
  database: Database = db(),
): Promise<DeletionCounts> {
  const chosen =
    options.limit === undefined
      ? sql`select id from contact_requests where ${where}`
      : options.dryRun
        ? sql`select id from contact_requests where ${where} order by id limit ${options.limit}`
        : sql`select id from contact_requests where ${where} order by id limit ${options.limit} for update skip locked`;
  const target = options.dryRun
    ? sql`select id from chosen`
    : sql`delete from contact_requests r using chosen where r.id = chosen.id returning r.id`;
  const result = await database.execute<{
    requests: number;
    notes: number;
    status_changes: number;
    mails: number;
    quotes: number;
    messages: number;
    documents: number;
  }>(sql`
    with chosen as (${chosen}), target as (${target})
    select
      (select count(*)::int from target) as requests,
      (select count(*)::int from contact_notes n join target t on t.id = n.contact_request_id) as notes,
      (select count(*)::int from contact_status_changes c join target t on t.id = c.contact_request_id) as status_changes,
      (select count(*)::int from mail_outbox m join target t on t.id = m.contact_request_id) as mails,
      (select count(*)::int from quotes q join target t on t.id = q.contact_request_id) as quotes,
      (select count(*)::int from request_messages rm join target t on t.id = rm.contact_request_id) as messages,
      (select count(*)::int from lease_documents ld join target t on t.id = ld.contact_request_id) as documents
  `);
  const row = result.rows[0];
  return {
    requests: Number(row.requests),
    notes: Number(row.notes),
    statusChanges: Number(row.status_changes),
    mails: Number(row.mails),
    quotes: Number(row.quotes),
    messages: Number(row.messages),
    documents: Number(row.documents),
  };
}
