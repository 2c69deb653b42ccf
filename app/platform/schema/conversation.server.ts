// What is written to people: the mail outbox and a request's conversation.
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { at, bytea, createdAt, identity, timestamps } from "./columns.server";
import { offerAlerts } from "./catalogue.server";
import { requestRef } from "./requests.server";
import { passwordResets, byUser, users } from "./accounts.server";
import { quotes } from "./documents.server";
import { savedSearches } from "./saved-searches.server";

export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;
export const mailStatus = pgEnum("mail_status", MAIL_STATUSES);

/**
 * Outbox of e-mails (issue 10): written in the same transaction as what they announce, sent by a
 * worker in every instance. A row is claimed by setting locked_until (FOR UPDATE SKIP LOCKED), so
 * that SMTP is spoken outside any transaction and a crashed sender's claim expires.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: identity(),
    // The request the mail is about: erasing or purging it removes its mails.
    contactRequestId: requestRef(),
    kind: text("kind").notNull(),
    // A password-reset mail (issue 20): its reset. The link's token is drawn when the mail is
    // sent and only its hash stored (issue 28: no token in clear anywhere in the database).
    passwordResetId: integer("password_reset_id").references((): AnyPgColumn => passwordResets.id, {
      onDelete: "cascade",
    }),
    // A mail to an account of the admin area about its security (issue 28): wrong codes after
    // the right password. Removing the account removes its mails.
    userId: integer("user_id").references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
    // A mail about an availability alert (issue 30): its confirmation or the offer's return. The
    // alert's deletion (unsubscribe, erasure, purge, the offer's deletion) removes its mails.
    alertId: integer("alert_id").references((): AnyPgColumn => offerAlerts.id, {
      onDelete: "cascade",
    }),
    // A saved search's mail (issue 42): its confirmation, or the address's digest (its first search).
    savedSearchId: integer("saved_search_id").references((): AnyPgColumn => savedSearches.id, {
      onDelete: "cascade",
    }),
    // A mail about a sent quote (issue 29): the quote to the buyer, the answer or the reminder
    // to the request's owner.
    quoteId: integer("quote_id").references((): AnyPgColumn => quotes.id, { onDelete: "cascade" }),
    // A message written to the buyer from the request's page (issue 40).
    requestMessageId: integer("request_message_id").references(
      (): AnyPgColumn => requestMessages.id,
      { onDelete: "cascade" },
    ),
    status: mailStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    lockedUntil: at("locked_until"),
    lastError: text("last_error"),
    sentAt: at("sent_at"),
    // 'Réessayer' from the dashboard: created_at stays the request's date; the 3-day window
    // counts from the last retry.
    retriedAt: at("retried_at"),
    retries: integer("retries").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index("mail_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("mail_outbox_status_idx").on(t.status, t.updatedAt.desc()),
    index("mail_outbox_request_idx").on(t.contactRequestId),
    index("mail_outbox_password_reset_idx").on(t.passwordResetId),
    index("mail_outbox_user_idx").on(t.userId),
    index("mail_outbox_alert_idx").on(t.alertId),
    index("mail_outbox_quote_idx").on(t.quoteId),
    index("mail_outbox_saved_search_idx").on(t.savedSearchId),
    index("mail_outbox_request_message_idx").on(t.requestMessageId),
  ],
);

export const messageDirection = pgEnum("message_direction", ["outbound", "inbound"]);
/** What an incoming message is: the buyer's own words, an automatic answer, or a bounce. */
export const messageKind = pgEnum("message_kind", ["message", "auto_reply", "bounce"]);

/**
 * A request's conversation (issue 40): the messages the team writes to the buyer from the request's
 * page (sent through the outbox), and the buyer's read from the mailbox (REPLY_MAILBOX, IMAP_URL).
 * A message is stored once: its Message-ID is unique, and so is its place in the mailbox. An
 * incoming message no request could be found for has none (`Non rattachés`).
 */
export const requestMessages = pgTable(
  "request_messages",
  {
    id: identity(),
    contactRequestId: requestRef(),
    direction: messageDirection("direction").notNull(),
    kind: messageKind("kind").notNull().default("message"),
    // An incoming message's place: the mailbox, its UIDVALIDITY and the message's UID.
    mailboxKey: text("mailbox_key"),
    // The salesperson who wrote it (their e-mail copied, as a note's), or the buyer's address.
    authorId: byUser("author_id"),
    authorEmail: text("author_email").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    // An incoming message's HTML part, sanitised when stored (no script, no remote content).
    html: text("html"),
    // With its angle brackets, as in the mail's header; In-Reply-To and References thread it.
    messageId: text("message_id").notNull(),
    inReplyTo: text("in_reply_to"),
    references: jsonb("references").$type<string[]>().notNull().default([]),
    // The quote joined to it, as a PDF attachment.
    quoteId: integer("quote_id").references(() => quotes.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("request_messages_message_id_key").on(t.messageId),
    uniqueIndex("request_messages_mailbox_key").on(t.mailboxKey),
    index("request_messages_request_idx").on(t.contactRequestId, t.createdAt),
  ],
);

/**
 * The files an incoming message carried (issue 40), kept within limits (incoming.server.ts) and
 * served to the team only, as downloads. They go with their message.
 */
export const requestMessageAttachments = pgTable(
  "request_message_attachments",
  {
    id: identity(),
    messageId: integer("message_id")
      .notNull()
      .references(() => requestMessages.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    // Decided from the bytes, not from the sender's word.
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [index("request_message_attachments_message_idx").on(t.messageId)],
);

/** The answers the team writes often (issue 40), offered on the reply form. */
export const replyTemplates = pgTable(
  "reply_templates",
  {
    id: identity(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("reply_templates_title_key").on(sql`lower(${t.title})`)],
);

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
export type RequestMessage = typeof requestMessages.$inferSelect;
