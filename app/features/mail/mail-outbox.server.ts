import { and, asc, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { MAIL_GIVE_UP_SECONDS } from "~/platform/outbox-backoff";
import { db, type Database } from "~/platform/db.server";
import { claimEnded, durableQueue, retryLater } from "~/platform/durable-queue.server";
import { log } from "~/platform/log.server";
import { contactRequests, mailOutbox, type MailOutboxRow } from "~/platform/schema.server";

/** What a mail of the outbox announces; its content is rendered when it is sent. */
export const MAIL_KINDS = {
  contactNotification: "contact_notification",
  // To the visitor (issue 22): the request's reference and a summary.
  contactAcknowledgement: "contact_acknowledgement",
  // To an account of the admin area (issue 20): the link of `Mot de passe oublié ?`.
  passwordReset: "password_reset",
  // To an account of the admin area (issue 28): its password is being used with wrong codes.
  secondFactorAlert: "second_factor_alert",
  // To a visitor (issue 30): the double opt-in link of an availability alert.
  alertConfirmation: "alert_confirmation",
  // To a visitor (issue 30): the offer of a confirmed alert is deliverable again.
  alertAvailable: "alert_available",
  // To a visitor (issue 42): a saved search's double opt-in link; the address's daily digest.
  savedSearchConfirmation: "saved_search_confirmation",
  savedSearchDigest: "saved_search_digest",
  // Issue 29: the quote to the requester (PDF attached, personal link), the buyer's answer and the
  // reminder before expiry to the request's owner (or the team).
  quoteSent: "quote_sent",
  quoteAnswered: "quote_answered",
  quoteReminder: "quote_reminder",
  // Issue 40: a message written to the buyer from the request's page (its conversation).
  requestReply: "request_reply",
  // Issue 40: to the request's owner (or the team): the buyer answered, read from the mailbox.
  requestReplied: "request_replied",
  // Issue 40's follow-ups: to the owner (or the team) when a request's first answer is late and
  // when the buyer first opens a sent quote; to an account, its morning digest.
  requestLate: "request_late",
  quoteOpened: "quote_opened",
  followUpDigest: "follow_up_digest",
  // Issue 41's LOA file: to the owner (or the team) when it is complete; to the buyer, at most
  // once a day, what is still missing.
  leaseFileComplete: "lease_file_complete",
  leaseFileMissing: "lease_file_missing",
  // Issue 41's hand-off: to the financer, the file's archive (built as it leaves); to the owner
  // (or the team), the buyer signed the delivery report.
  leaseFileFinancer: "lease_file_financer",
  deliveryReportSigned: "delivery_report_signed",
  // Issue 42: to the buyer, a new link to `Ma demande`, asked for by reference and address.
  requestLink: "request_link",
} as const;
export type MailKind = (typeof MAIL_KINDS)[keyof typeof MAIL_KINDS];

/**
 * Announced (NOTIFY) when a mail is queued or re-queued: PostgreSQL and PGlite deliver it when the
 * transaction commits, so a worker woken by it sees the row. Every instance listens.
 */
export const MAIL_CHANNEL = "mail_outbox";

/** The outbox as a durable queue (durable-queue.server.ts): claims, give-backs, due times. */
export const mailQueue = durableQueue<MailOutboxRow>({
  name: "mail",
  channel: MAIL_CHANNEL,
  table: mailOutbox,
  read: (ids, database) =>
    database.select().from(mailOutbox).where(inArray(mailOutbox.id, ids)).orderBy(mailOutbox.id),
});

/** Wakes the mail workers (every instance) once the transaction commits. */
export async function notifyMailWorkers(database: Database): Promise<void> {
  await mailQueue.notify(database);
}

/**
 * Queues the sales team's notification of one contact request. Call it with the transaction that
 * stores (or un-flags) the request, so that the request and its mail exist together or not at all.
 */
export async function enqueueContactNotification(
  contactRequestId: number,
  database: Database = db(),
  kind: MailKind = MAIL_KINDS.contactNotification,
): Promise<void> {
  await database.insert(mailOutbox).values({ contactRequestId, kind });
  await mailQueue.notify(database);
}

/** Queues a mail to an account about its own security, rendered when it is sent. */
export async function enqueueAccountMail(
  userId: number,
  kind: MailKind,
  database: Database,
): Promise<void> {
  await database.insert(mailOutbox).values({ userId, kind });
  await mailQueue.notify(database);
}

/** Claims up to `limit` due mails for `leaseSeconds` (see DurableQueue.claim). */
export function claimDueMails(
  limit: number,
  leaseSeconds: number,
  database: Database = db(),
): Promise<MailOutboxRow[]> {
  return mailQueue.claim(limit, leaseSeconds, database);
}

/** The SMTP server accepted the mail. */
export async function markMailSent(id: number, database: Database = db()): Promise<void> {
  await database
    .update(mailOutbox)
    .set({ status: "sent", sentAt: sql`now()`, ...claimEnded() })
    .where(mailQueue.pending(id));
}

/**
 * The mail never left (the database went away while it was being prepared): its claim is given
 * back, so that the next look at the outbox takes it instead of waiting out the lease.
 */
export function releaseMailClaim(id: number, database: Database = db()): Promise<void> {
  return mailQueue.releaseClaim(id, database);
}

/** An attempt failed: due again after `delaySeconds`, with the error kept for the dashboard. */
export async function markMailAttemptFailed(
  id: number,
  error: string,
  delaySeconds: number,
  database: Database = db(),
): Promise<void> {
  await database
    .update(mailOutbox)
    .set({ lastError: error.slice(0, 1000), ...retryLater(delaySeconds) })
    .where(mailQueue.pending(id));
}

/** A mail that cannot be sent at all (its request is gone, an unknown kind): failed at once. */
export async function markMailFailed(
  id: number,
  error: string,
  database: Database = db(),
): Promise<void> {
  await database
    .update(mailOutbox)
    .set({ status: "failed", lastError: error, ...claimEnded() })
    .where(mailQueue.pending(id));
}

/**
 * Marks failed the mails still unsent 3 days after they were queued (created_at, or retried_at after
 * a retry from the dashboard). Claimed rows are left to their sender. Returns how many.
 */
export async function giveUpStaleMails(database: Database = db()): Promise<number> {
  const rows = await database
    .update(mailOutbox)
    .set({
      status: "failed",
      lastError: sql`'Non envoyé 3 jours après la demande' || coalesce(' ; dernière erreur : ' || ${mailOutbox.lastError}, '')`,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(mailOutbox.status, "pending"),
        lt(
          sql`coalesce(${mailOutbox.retriedAt}, ${mailOutbox.createdAt})`,
          sql`now() - make_interval(secs => ${MAIL_GIVE_UP_SECONDS})`,
        ),
        mailQueue.unclaimed,
      ),
    )
    .returning({ id: mailOutbox.id });
  return rows.length;
}

/**
 * A failed mail queued again from the dashboard: due now, its 3 days counted from now (retried_at),
 * its creation date kept. False
 * when the mail is not (or no longer) failed.
 */
export async function retryFailedMail(id: number, database: Database = db()): Promise<boolean> {
  return database.transaction(async (tx) => {
    const rows = await tx
      .update(mailOutbox)
      .set({
        status: "pending",
        attempts: 0,
        nextAttemptAt: sql`now()`,
        lockedUntil: null,
        // created_at stays the mail's creation (the personal-data export shows it).
        retriedAt: sql`now()`,
        retries: sql`${mailOutbox.retries} + 1`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, "failed")))
      .returning({ id: mailOutbox.id });
    if (rows.length === 0) return false;
    await mailQueue.notify(tx);
    return true;
  });
}

/** The dashboard's retry: `not-failed` when someone retried it first, `failed` on a database error. */
export async function requeueFailedMail(
  id: number,
  context: { requestId: string },
): Promise<{ kind: "queued" | "not-failed" | "failed" }> {
  try {
    if (!(await retryFailedMail(id))) return { kind: "not-failed" };
  } catch (error) {
    log.error("mail retry failed", { requestId: context.requestId, error });
    return { kind: "failed" };
  }
  log.info("mail retry queued", { requestId: context.requestId, mailId: id });
  return { kind: "queued" };
}

/** The dashboard's view of the outbox: counts, and the mails that need attention. */
export async function mailOutboxOverview(database: Database = db()) {
  const counts = await database
    .select({ status: mailOutbox.status, count: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ["pending", "failed"]))
    .groupBy(mailOutbox.status);
  const [oldest] = await database
    .select({ createdAt: mailOutbox.createdAt })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, "pending"))
    .orderBy(asc(mailOutbox.createdAt))
    .limit(1);
  // Failed mails, and waiting ones that already failed once (an SMTP outage shows here).
  const troubled = await database
    .select({
      id: mailOutbox.id,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      createdAt: mailOutbox.createdAt,
      updatedAt: mailOutbox.updatedAt,
      contactRequestId: mailOutbox.contactRequestId,
      contactName: contactRequests.name,
    })
    .from(mailOutbox)
    .leftJoin(contactRequests, eq(contactRequests.id, mailOutbox.contactRequestId))
    .where(
      or(
        eq(mailOutbox.status, "failed"),
        and(eq(mailOutbox.status, "pending"), sql`${mailOutbox.lastError} is not null`),
      ),
    )
    .orderBy(desc(mailOutbox.updatedAt), desc(mailOutbox.id))
    .limit(20);
  const countOf = (status: string) => counts.find((c) => c.status === status)?.count ?? 0;
  return {
    pending: countOf("pending"),
    failed: countOf("failed"),
    oldestPendingAt: oldest?.createdAt ?? null,
    troubled,
  };
}

export type MailOutboxOverview = Awaited<ReturnType<typeof mailOutboxOverview>>;
