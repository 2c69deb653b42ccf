// Contact requests and their history (notes, statuses, owners).
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { CONTACT_STATUSES } from "~/lib/domain";
import type { ConfigurationSnapshot } from "~/lib/offer-options";
import { at, createdAt, identity, timestamps } from "./columns.server";
import { offers } from "./catalogue.server";
import { byUser } from "./accounts.server";

export const contactStatus = pgEnum("contact_status", CONTACT_STATUSES);

export const contactRequests = pgTable(
  "contact_requests",
  {
    id: identity(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    // The buyer's company and its SIREN (issue 29), optional; 9 digits, Luhn-checked.
    company: text("company"),
    siren: text("siren"),
    message: text("message").notNull(),
    offerId: integer("offer_id").references(() => offers.id, { onDelete: "set null" }),
    // Snapshot of the offer at the time of the request: still readable once the offer is deleted.
    offerTitle: text("offer_title"),
    offerReference: text("offer_reference"),
    // The chosen configuration with its labels and amounts when sent (issue 21), or null.
    configuration: jsonb("configuration").$type<ConfigurationSnapshot>(),
    status: contactStatus("status").notNull().default("pending"),
    // A submission that filled the honeypot field: kept (autofill can put a real prospect there),
    // never mailed, hidden from the default list, purged after 30 days (issue 10).
    suspectedSpam: boolean("suspected_spam").notNull().default(false),
    // The form's idempotency token (issue 19): a double click, a retried post or a reload of the
    // same form stores one request. Null for posts without one (scripts, older pages).
    submissionToken: uuid("submission_token").unique("contact_requests_submission_token_key"),
    // The Administrateur or Commercial who handles it (issue 22); null: nobody yet. An account's
    // removal leaves its requests unassigned.
    ownerId: byUser("owner_id"),
    // The first answer (first status change or note), set once by those writes: the dashboard's
    // time-to-first-answer chart reads it instead of probing both histories per request.
    firstAnsweredAt: at("first_answered_at"),
    // A message to the buyer came back undelivered (issue 40): the address fails.
    emailFailedAt: at("email_failed_at"),
    // Follow-ups (issue 40): 'À relancer le', a day in Europe/Paris (YYYY-MM-DD), or null.
    nextActionOn: date("next_action_on", { mode: "string" }),
    // The first answer is due by then (business hours from creation, follow-ups.server.ts); null
    // for requests made before the deadline existed. late_notified_at: the owner was told once.
    firstResponseDueAt: at("first_response_due_at"),
    lateNotifiedAt: at("late_notified_at"),
    // Where the visit that sent it came from (issue 42): its first page's utm_* parameters and the
    // external site it was reached from (a host name), carried through the pages by `src`.
    source: text("source"),
    medium: text("medium"),
    campaign: text("campaign"),
    term: text("term"),
    content: text("content"),
    referrer: text("referrer"),
    // `Ma demande` (issue 42): the SHA-256 of the buyer's secret link, drawn as its mail leaves.
    followTokenHash: text("follow_token_hash"),
    // updated_at is the last activity: creation, status change, note (retention counts from it).
    ...timestamps,
    /**
     * The admin search's fields, lower-cased, joined by U+001F like offers.search_text: one LIKE
     * on one trigram-indexed column (name, e-mail, phone, message, offer reference).
     */
    searchText: text("search_text").generatedAlwaysAs(
      sql`lower(name || chr(31) || email || chr(31) || coalesce(phone, '') || chr(31) || message || chr(31) || coalesce(offer_reference, '') || chr(31) || coalesce(company, '') || chr(31) || coalesce(siren, ''))`,
    ),
  },
  (t) => [
    // The admin list's orders (newest or oldest first: a backward scan), with and without status.
    index("contact_requests_list_idx").on(
      t.suspectedSpam,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("contact_requests_status_list_idx").on(
      t.suspectedSpam,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // 'Mes relances' (issue 40): the follow-ups due, and the first answers still owed.
    index("contact_requests_next_action_idx")
      .on(t.ownerId, t.nextActionOn)
      .where(sql`${t.nextActionOn} is not null`),
    index("contact_requests_unanswered_idx")
      .on(t.firstResponseDueAt)
      .where(sql`${t.firstAnsweredAt} is null and ${t.firstResponseDueAt} is not null`),
    // 'Mes demandes' and 'Non attribuées' in the list's order.
    index("contact_requests_owner_list_idx").on(
      t.suspectedSpam,
      t.ownerId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("contact_requests_offer_idx").on(t.offerId),
    index("contact_requests_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    // Personal data: everything about one address, case-insensitively (issue 12).
    index("contact_requests_email_lower_idx").on(sql`lower(${t.email})`),
    // Retention purge by last activity.
    index("contact_requests_updated_idx").on(t.updatedAt),
    // The desk's filter by source (issue 42); `Ma demande` by its link.
    index("contact_requests_source_idx").on(t.source),
    uniqueIndex("contact_requests_follow_token_key").on(t.followTokenHash),
  ],
);

/** The request a row belongs to, erased with it. */
export const requestRef = () =>
  integer("contact_request_id").references((): AnyPgColumn => contactRequests.id, {
    onDelete: "cascade",
  });

/**
 * Exact counts of contact requests per key, kept by a trigger on contact_requests (migration
 * 0003): the dashboard and the list's status filter read a few rows instead of counting 100,000.
 * Keys: `status:<status>` for requests that are not suspected spam, `spam` for the others.
 * Derived data: rebuilt by refresh_contact_request_counts() (after a restore, for instance).
 */
export const contactRequestCounts = pgTable("contact_request_counts", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
});

/** Internal notes on a request (issue 10): never shown publicly. */
export const contactNotes = pgTable(
  "contact_notes",
  {
    id: identity(),
    contactRequestId: requestRef().notNull(),
    // The author's e-mail is copied: the note stays signed once the administrator is removed.
    authorId: byUser("author_id"),
    authorEmail: text("author_email").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("contact_notes_request_idx").on(t.contactRequestId, t.createdAt)],
);

/** Status history of a request (issue 10): who, when, from and to. */
export const contactStatusChanges = pgTable(
  "contact_status_changes",
  {
    id: identity(),
    contactRequestId: requestRef().notNull(),
    fromStatus: contactStatus("from_status").notNull(),
    toStatus: contactStatus("to_status").notNull(),
    authorId: byUser("author_id"),
    authorEmail: text("author_email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("contact_status_changes_request_idx").on(t.contactRequestId, t.createdAt)],
);

/**
 * Owner history of a request (issue 22): from whom to whom (e-mails copied, null for nobody), and
 * who did it (null author: the automatic round-robin assignment).
 */
export const contactOwnerChanges = pgTable(
  "contact_owner_changes",
  {
    id: identity(),
    contactRequestId: requestRef().notNull(),
    fromOwnerEmail: text("from_owner_email"),
    toOwnerEmail: text("to_owner_email"),
    authorId: byUser("author_id"),
    authorEmail: text("author_email"),
    createdAt: createdAt(),
  },
  (t) => [index("contact_owner_changes_request_idx").on(t.contactRequestId, t.createdAt)],
);

export type ContactRequest = typeof contactRequests.$inferSelect;
export type ContactNote = typeof contactNotes.$inferSelect;
export type ContactStatusChange = typeof contactStatusChanges.$inferSelect;
export type ContactOwnerChange = typeof contactOwnerChanges.$inferSelect;
