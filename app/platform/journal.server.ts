import { and, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { JournalAction } from "~/platform/journal";
import { JOURNAL_PAGE_SIZE } from "~/platform/journal";
import { db, type Database } from "./db.server";
import { env } from "./env.server";
import { log } from "./log.server";
import { auditJournal } from "./schema.server";

/** Where an entry comes from: the request's id and the client's address. */
export type JournalContext = { requestId: string; clientIp?: string };

export type JournalEntry = {
  actor?: { id: number; email: string } | null;
  action: JournalAction;
  /** What was acted on, in words: `offre 12`, `DEM-…`, an account's e-mail, a keyed hash of a person. */
  target?: string | null;
};

/** Who makes a security change and from where: its journal entry is written with it. */
export type Journaled = { context: JournalContext; actor: { id: number; email: string } };

function insertEntry(database: Database, context: JournalContext, entry: JournalEntry) {
  return database.insert(auditJournal).values({
    actorId: entry.actor?.id ?? null,
    actorEmail: entry.actor?.email ?? null,
    action: entry.action,
    target: entry.target?.slice(0, 300) ?? null,
    ip: context.clientIp?.slice(0, 64) ?? null,
    requestId: context.requestId.slice(0, 100),
  });
}

/**
 * Appends one entry to the journal, best effort: a journal that cannot be written is logged,
 * never the reason an action fails. For what changes nothing (a refused sign-in, a code refused,
 * a page viewed) and for actions outside the security events.
 */
export async function record(
  context: JournalContext,
  entry: JournalEntry,
  database: Database = db(),
): Promise<void> {
  try {
    await insertEntry(database, context, entry);
  } catch (error) {
    log.error("journal entry not written", {
      requestId: context.requestId,
      action: entry.action,
      error,
    });
  }
}

/**
 * Appends one entry or throws (issue 28): the security events (sign-ins, accounts and roles,
 * passwords, second factors, exports, erasures) call it with the transaction of the change itself,
 * so that no journal row means no change. An export writes it before a byte of data leaves.
 */
export async function recordWithChange(
  database: Database,
  context: JournalContext,
  entry: JournalEntry,
): Promise<void> {
  await insertEntry(database, context, entry);
}

/**
 * An export's entry, written before a byte of the data leaves (issue 28): if the journal cannot
 * be written, the export fails.
 */
export function recordBeforeExport(context: JournalContext, entry: JournalEntry): Promise<void> {
  return recordWithChange(db(), context, entry);
}

export const journal = { record, recordWithChange, recordBeforeExport };

export type JournalFilters = {
  account?: string;
  action?: JournalAction;
  /** Days as YYYY-MM-DD, Europe/Paris, both included. */
  from?: string;
  to?: string;
};

function where(filters: JournalFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.account) conditions.push(eq(auditJournal.actorEmail, filters.account));
  if (filters.action) conditions.push(eq(auditJournal.action, filters.action));
  if (filters.from) {
    conditions.push(
      gte(auditJournal.at, sql`(${filters.from}::date)::timestamp at time zone 'Europe/Paris'`),
    );
  }
  if (filters.to) {
    conditions.push(
      lt(auditJournal.at, sql`(${filters.to}::date + 1)::timestamp at time zone 'Europe/Paris'`),
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

const columns = {
  id: auditJournal.id,
  at: auditJournal.at,
  actorEmail: auditJournal.actorEmail,
  action: auditJournal.action,
  target: auditJournal.target,
  ip: auditJournal.ip,
  requestId: auditJournal.requestId,
};

/** One page of the journal, newest first, with the total. */
export async function listJournal(
  filters: JournalFilters,
  page: number,
  database: Database = db(),
) {
  const condition = where(filters);
  const [rows, [{ n }]] = await Promise.all([
    database
      .select(columns)
      .from(auditJournal)
      .where(condition)
      .orderBy(desc(auditJournal.at), desc(auditJournal.id))
      .limit(JOURNAL_PAGE_SIZE)
      .offset((page - 1) * JOURNAL_PAGE_SIZE),
    database.select({ n: count() }).from(auditJournal).where(condition),
  ]);
  return { rows, total: n };
}

/** Every entry of the filtered view, newest first (the CSV export; bounded by the retention). */
export function journalRows(filters: JournalFilters, database: Database = db()) {
  return database
    .select(columns)
    .from(auditJournal)
    .where(where(filters))
    .orderBy(desc(auditJournal.at), desc(auditJournal.id));
}

/** The accounts that appear in the journal (the filter's choices). */
export async function journalAccounts(database: Database = db()): Promise<string[]> {
  const rows = await database
    .selectDistinct({ email: auditJournal.actorEmail })
    .from(auditJournal)
    .orderBy(auditJournal.actorEmail);
  return rows.flatMap((r) => (r.email ? [r.email] : []));
}

/**
 * Deletes the entries older than AUDIT_RETENTION_MONTHS through purge_audit_journal() (migration
 * 0012), which runs as the tables' owner: the only delete the append-only trigger lets through,
 * and the only one the server's role can make with two roles on PostgreSQL. The function never
 * deletes entries younger than the floor the migrator set from AUDIT_RETENTION_MONTHS.
 */
export async function purgeJournal(
  months: number = env().AUDIT_RETENTION_MONTHS,
  database: Database = db(),
): Promise<number> {
  const result = await database.execute<{ deleted: number }>(
    sql`select purge_audit_journal(${months}::int) as deleted`,
  );
  return Number(result.rows[0].deleted);
}
