// Follow-ups (issue 40): 'À relancer le' on a request, the first-response deadline counted in
// business hours, what each salesperson must do today ('Mes relances'), and the notices that
// leave once (late request, morning digest). Every "now" comes from the one clock.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { isBusinessDay } from "~/platform/business-hours";
import { contactReference } from "~/platform/contact-reference";
import { parisDay, parisParts } from "~/lib/dates";
import type { ContactStatus } from "~/lib/domain";
import { now } from "~/platform/clock.server";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { contactRequests, mailOutbox, users } from "~/platform/schema.server";
import { MAIL_KINDS, notifyMailWorkers } from "~/features/mail/mail-outbox.server";
import { OWNER_ROLES } from "~/features/accounts/users.server";
import type { FollowUpReason } from "./follow-up-mail";
import { queueMissingDocumentReminders } from "~/features/lease-file/lease-file-mail.server";
import { queueQuoteReminders } from "~/features/quotes/quote-sending.server";
import { queueSavedSearchDigests } from "~/features/saved-searches/saved-searches.server";

export type FollowUp = {
  id: number;
  reference: string;
  name: string;
  company: string | null;
  offerTitle: string | null;
  status: ContactStatus;
  ownerEmail: string | null;
  nextActionOn: string | null;
  firstResponseDueAt: Date | null;
  reasons: FollowUpReason[];
};

/**
 * A buyer's message the team has not answered: no message from us, note or status change after it
 * (an out-of-office or a bounce is not the buyer's answer).
 */
const awaitingAnswer = sql<Date | null>`(
  select max(m.created_at) from request_messages m
  where m.contact_request_id = ${contactRequests.id} and m.direction = 'inbound' and m.kind = 'message'
    and not exists (select 1 from request_messages o where o.contact_request_id = m.contact_request_id
                      and o.direction = 'outbound' and o.created_at > m.created_at)
    and not exists (select 1 from contact_notes n where n.contact_request_id = m.contact_request_id
                      and n.created_at > m.created_at)
    and not exists (select 1 from contact_status_changes s where s.contact_request_id = m.contact_request_id
                      and s.created_at > m.created_at)
)`;

/** Late: no first answer yet and its deadline passed. */
const lateAt = (at: Date) =>
  sql`(${contactRequests.firstAnsweredAt} is null and ${contactRequests.firstResponseDueAt} <= ${at.toISOString()})`;

/**
 * What must be done today: the requests of `ownerId` (null: nobody's) that are late, that the buyer
 * answered, or whose 'À relancer le' is today or past. Late first, then the buyer's answers, then
 * the follow-ups by date; spam never.
 */
export async function followUpsOf(
  ownerId: number | null,
  at: Date = now(),
  database: Database = db(),
): Promise<FollowUp[]> {
  const today = parisDay(at);
  const rows = await database
    .select({
      id: contactRequests.id,
      createdAt: contactRequests.createdAt,
      name: contactRequests.name,
      company: contactRequests.company,
      offerTitle: contactRequests.offerTitle,
      status: contactRequests.status,
      ownerEmail: users.email,
      nextActionOn: contactRequests.nextActionOn,
      firstResponseDueAt: contactRequests.firstResponseDueAt,
      late: sql<boolean>`coalesce(${lateAt(at)}, false)`,
      repliedAt: awaitingAnswer.mapWith((v: string | Date | null) => (v ? new Date(v) : null)),
    })
    .from(contactRequests)
    .leftJoin(users, eq(users.id, contactRequests.ownerId))
    .where(
      and(
        eq(contactRequests.suspectedSpam, false),
        ownerId === null ? isNull(contactRequests.ownerId) : eq(contactRequests.ownerId, ownerId),
        sql`(${lteNextAction(today)} or ${lateAt(at)} or ${awaitingAnswer} is not null)`,
      ),
    )
    .limit(500);
  const items = rows.map((row): FollowUp & { rank: number; sortAt: number } => {
    const reasons: FollowUpReason[] = [];
    if (row.late && row.firstResponseDueAt) {
      reasons.push({ kind: "late", dueAt: row.firstResponseDueAt });
    }
    if (row.repliedAt) reasons.push({ kind: "replied", at: row.repliedAt });
    if (row.nextActionOn && row.nextActionOn <= today) {
      reasons.push({ kind: "due", on: row.nextActionOn });
    }
    const first = reasons[0];
    return {
      id: row.id,
      reference: contactReference(row.id, row.createdAt),
      name: row.name,
      company: row.company,
      offerTitle: row.offerTitle,
      status: row.status,
      ownerEmail: row.ownerEmail,
      nextActionOn: row.nextActionOn,
      firstResponseDueAt: row.firstResponseDueAt,
      reasons,
      rank: first?.kind === "late" ? 0 : first?.kind === "replied" ? 1 : 2,
      sortAt:
        first?.kind === "late"
          ? first.dueAt.getTime()
          : first?.kind === "replied"
            ? first.at.getTime()
            : Date.parse(first?.on ?? today),
    };
  });
  return items
    .filter((item) => item.reasons.length > 0)
    .sort((a, b) => a.rank - b.rank || a.sortAt - b.sortAt || a.id - b.id)
    .map(({ rank: _rank, sortAt: _sortAt, ...item }) => item);
}

function lteNextAction(today: string) {
  return sql`(${contactRequests.nextActionOn} is not null and ${contactRequests.nextActionOn} <= ${today})`;
}

/** How many requests `ownerId` must look at today (the navigation's count, the digest's test). */
export async function followUpCount(
  ownerId: number,
  at: Date = now(),
  database: Database = db(),
): Promise<number> {
  return (await followUpsOf(ownerId, at, database)).length;
}

/**
 * The requests whose first-response deadline passed without an answer, each told once to its
 * owner (or the team): late_notified_at is set in the statement that picks them, so two instances
 * never queue the same one. Returns how many.
 */
export async function queueLateNotices(at: Date = now(), database: Database = db()) {
  return database.transaction(async (tx) => {
    const late = await tx
      .update(contactRequests)
      .set({ lateNotifiedAt: at })
      .where(
        and(
          isNull(contactRequests.lateNotifiedAt),
          eq(contactRequests.suspectedSpam, false),
          lateAt(at),
        ),
      )
      .returning({ id: contactRequests.id });
    if (late.length === 0) return 0;
    await tx
      .insert(mailOutbox)
      .values(late.map((row) => ({ contactRequestId: row.id, kind: MAIL_KINDS.requestLate })));
    await notifyMailWorkers(tx);
    return late.length;
  });
}

/**
 * The morning digest: from FOLLOW_UP_DIGEST_HOUR (Paris) on a working day, one mail to each
 * Administrateur or Commercial with something to do today, once a day (digest_sent_on is claimed
 * in the statement that picks the account). Returns the accounts mailed.
 */
export async function queueDigests(at: Date = now(), database: Database = db()): Promise<number> {
  const today = parisDay(at);
  if (!isBusinessDay(today) || Number(parisParts(at).hour) < env().FOLLOW_UP_DIGEST_HOUR) return 0;
  const accounts = await database
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(users.role, [...OWNER_ROLES]),
        sql`${users.digestSentOn} is distinct from ${today}`,
      ),
    );
  let queued = 0;
  for (const account of accounts) {
    if ((await followUpCount(account.id, at, database)) === 0) continue;
    queued += await database.transaction(async (tx) => {
      const [claimed] = await tx
        .update(users)
        .set({ digestSentOn: today })
        .where(and(eq(users.id, account.id), sql`${users.digestSentOn} is distinct from ${today}`))
        .returning({ id: users.id });
      if (!claimed) return 0;
      await tx.insert(mailOutbox).values({ userId: claimed.id, kind: MAIL_KINDS.followUpDigest });
      await notifyMailWorkers(tx);
      return 1;
    });
  }
  return queued;
}

/** One look at what is due now; each part stands alone (a failure does not stop the others). */
export async function runFollowUpChecks(at: Date = now(), database: Database = db()) {
  const [late, reminders, digests, documents, searches] = await Promise.allSettled([
    queueLateNotices(at, database),
    queueQuoteReminders(at, database),
    queueDigests(at, database),
    queueMissingDocumentReminders(at, database),
    queueSavedSearchDigests(database),
  ]);
  for (const [name, outcome] of [
    ["late notices", late],
    ["quote reminders", reminders],
    ["follow-up digests", digests],
    ["missing document reminders", documents],
    ["saved search digests", searches],
  ] as const) {
    if (outcome.status === "rejected") log.error(`${name} failed`, { error: outcome.reason });
    else if (outcome.value) log.info(`${name} queued`, { count: outcome.value });
  }
  // Tells a system test (LOG_LEVEL=debug) when a check ended, to act between two.
  log.debug("follow-up checks done");
}

/**
 * Runs the checks 30 s after start (sooner if the interval is shorter), then every
 * FOLLOW_UP_CHECK_SECONDS (five minutes by default), until the returned stop is called.
 */
export function startFollowUpSchedule(): () => void {
  let running: Promise<void> | undefined;
  const check = () => {
    running ??= runFollowUpChecks().finally(() => {
      running = undefined;
    });
  };
  const intervalMs = env().FOLLOW_UP_CHECK_SECONDS * 1000;
  const first = setTimeout(check, Math.min(30_000, intervalMs));
  const every = setInterval(check, intervalMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}

/** The request page's follow-up card, on the one clock. */
export function followUpStateOf(
  request: {
    nextActionOn: string | null;
    firstResponseDueAt: Date | null;
    firstAnsweredAt: Date | null;
    quoteOpenedAt: Date | null;
  },
  at: Date = now(),
) {
  return {
    nextActionOn: request.nextActionOn,
    firstResponseDueAt: request.firstResponseDueAt,
    firstAnsweredAt: request.firstAnsweredAt,
    quoteOpenedAt: request.quoteOpenedAt,
    late:
      !request.firstAnsweredAt &&
      request.firstResponseDueAt !== null &&
      request.firstResponseDueAt.getTime() <= at.getTime(),
    today: parisDay(at),
  };
}
