import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { selectRequestsWithOwner } from "~/platform/contact-columns.server";
import { contactReference } from "~/platform/contact-reference";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { contactRequests, mailOutbox, quotes, requestMessages } from "~/platform/schema.server";
import { siteConfig } from "~/platform/site.server";
import type { AdminUser } from "~/features/accounts/users.server";
import { MAIL_KINDS, mailQueue } from "~/features/mail/mail-outbox.server";
import { messageDomainOf } from "~/features/mail/mail-settings.server";
import { replyAddress } from "./reply-address.server";
import { withAttachments } from "./attachments.server";

// A request's conversation (issue 40): what the team writes to the buyer from the request's page,
// queued through the outbox (DKIM-signed like every mail), threaded as mail clients expect.

/** At most this many Message-IDs in a message's References (RFC 5322 lets clients trim them). */
const REFERENCES_KEPT = 10;

/** A message as the pages show it (the conversation, the unattached list), without its files. */
export const shownMessageColumns = {
  id: requestMessages.id,
  kind: requestMessages.kind,
  authorEmail: requestMessages.authorEmail,
  subject: requestMessages.subject,
  body: requestMessages.body,
  hasHtml: sql<boolean>`${requestMessages.html} is not null`,
  createdAt: requestMessages.createdAt,
};

/**
 * A request's messages, oldest first, with each outgoing one's delivery as the outbox has it, and
 * each incoming one's files and whether its own layout (HTML) was kept.
 */
export async function conversationOf(contactRequestId: number, database: Database = db()) {
  const messages = await database
    .select({
      ...shownMessageColumns,
      direction: requestMessages.direction,
      quoteNumber: quotes.number,
      mailStatus: mailOutbox.status,
      mailError: mailOutbox.lastError,
      sentAt: mailOutbox.sentAt,
    })
    .from(requestMessages)
    .leftJoin(quotes, eq(quotes.id, requestMessages.quoteId))
    .leftJoin(mailOutbox, eq(mailOutbox.requestMessageId, requestMessages.id))
    .where(eq(requestMessages.contactRequestId, contactRequestId))
    .orderBy(asc(requestMessages.createdAt), asc(requestMessages.id));
  // Only the buyer's messages carry files (the team's join the quote as it leaves).
  return withAttachments(messages, database);
}

export type ConversationMessage = Awaited<ReturnType<typeof conversationOf>>[number];

/** The request's quote that a message can join: the current one, once sent. */
export async function attachableQuote(contactRequestId: number, database: Database = db()) {
  const [quote] = await database
    .select({ id: quotes.id, number: quotes.number })
    .from(quotes)
    .where(
      and(
        eq(quotes.contactRequestId, contactRequestId),
        isNull(quotes.replacedAt),
        isNotNull(quotes.sentAt),
      ),
    )
    .limit(1);
  return quote;
}

/**
 * The message a new one answers: the conversation's last, or else the acknowledgement the buyer
 * received (its Message-ID as the mail worker wrote it), so that their client shows one thread.
 */
async function parentOf(
  contactRequestId: number,
  domain: string,
  tx: Database,
): Promise<{ messageId: string; references: string[] } | undefined> {
  const [last] = await tx
    .select({ messageId: requestMessages.messageId, references: requestMessages.references })
    .from(requestMessages)
    .where(eq(requestMessages.contactRequestId, contactRequestId))
    .orderBy(desc(requestMessages.createdAt), desc(requestMessages.id))
    .limit(1);
  if (last) return last;
  const [acknowledgement] = await tx
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.contactRequestId, contactRequestId),
        eq(mailOutbox.kind, MAIL_KINDS.contactAcknowledgement),
        // Sent, or leaving before this one: never one that failed (the buyer does not have it).
        ne(mailOutbox.status, "failed"),
      ),
    )
    .limit(1);
  return acknowledgement
    ? {
        messageId: `<contact-${contactRequestId}.mail-${acknowledgement.id}@${domain}>`,
        references: [],
      }
    : undefined;
}

export type ReplySending =
  { kind: "queued"; messageId: number } | { kind: "missing" } | { kind: "no-quote" };

/**
 * Writes a message to the request's buyer: stored in its conversation and queued in one transaction
 * on the locked request, which counts it as activity and as an answer (first_answered_at).
 */
export async function sendReply(
  contactRequestId: number,
  input: { subject: string; body: string; attachQuote: boolean },
  actor: AdminUser,
  database: Database = db(),
): Promise<ReplySending> {
  const domain = messageDomainOf(siteConfig().baseUrl);
  return database.transaction(async (tx) => {
    const [request] = await tx
      .select({ id: contactRequests.id })
      .from(contactRequests)
      .where(eq(contactRequests.id, contactRequestId))
      .for("update");
    if (!request) return { kind: "missing" };
    const quote = input.attachQuote ? await attachableQuote(contactRequestId, tx) : undefined;
    if (input.attachQuote && !quote) return { kind: "no-quote" };
    const parent = await parentOf(contactRequestId, domain, tx);
    const [message] = await tx
      .insert(requestMessages)
      .values({
        contactRequestId,
        direction: "outbound",
        authorId: actor.id,
        authorEmail: actor.email,
        subject: input.subject,
        body: input.body,
        messageId: `<reply-${randomUUID()}@${domain}>`,
        inReplyTo: parent?.messageId ?? null,
        references: parent ? [...parent.references, parent.messageId].slice(-REFERENCES_KEPT) : [],
        quoteId: quote?.id ?? null,
      })
      .returning({ id: requestMessages.id });
    await tx.insert(mailOutbox).values({
      contactRequestId,
      kind: MAIL_KINDS.requestReply,
      requestMessageId: message.id,
    });
    await tx
      .update(contactRequests)
      .set({
        updatedAt: sql`now()`,
        firstAnsweredAt: sql`coalesce(${contactRequests.firstAnsweredAt}, now())`,
      })
      .where(eq(contactRequests.id, contactRequestId));
    await mailQueue.notify(tx);
    return { kind: "queued", messageId: message.id };
  });
}

/** A message with its request (the buyer's address and name, the owner) and the reference. */
export async function messageWithRequest(requestMessageId: number, database: Database) {
  const [row] = await selectRequestsWithOwner(
    {
      message: requestMessages,
      email: contactRequests.email,
      name: contactRequests.name,
      createdAt: contactRequests.createdAt,
    },
    database,
  )
    .innerJoin(requestMessages, eq(requestMessages.contactRequestId, contactRequests.id))
    .where(eq(requestMessages.id, requestMessageId));
  const contactRequestId = row?.message.contactRequestId;
  if (!contactRequestId) return undefined;
  return { ...row, contactRequestId, reference: contactReference(contactRequestId, row.createdAt) };
}

/**
 * What a queued message says when it leaves: the message, its request and the address the buyer's
 * reply reaches (the request's plus-address of REPLY_MAILBOX, else SITE_EMAIL).
 */
export async function outgoingReply(requestMessageId: number, database: Database) {
  const found = await messageWithRequest(requestMessageId, database);
  if (!found) return undefined;
  const mailbox = env().REPLY_MAILBOX;
  const replyTo = mailbox
    ? await replyAddress(mailbox, found.reference, database)
    : siteConfig().email;
  return { ...found, replyTo };
}
