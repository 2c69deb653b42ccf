import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { CONTACT_STATUSES, OFFER_TYPES } from "~/lib/domain";
import { DELIVERY_STATES } from "~/lib/offer-fields";
import type { ConfigurationSnapshot, OptionGroup } from "~/lib/offer-options";
import type { QuoteSource } from "~/lib/quote";
import type { QuoteAcceptance, SentQuoteTerms } from "~/lib/quote-sending";
import {
  SIGNED_DOCUMENT_KINDS,
  type SignedAcceptance,
  type SignedParty,
  type SignedSeller,
  type SignedTerms,
} from "~/lib/signed-documents";

export const offerType = pgEnum("offer_type", OFFER_TYPES);
export const deliveryState = pgEnum("delivery_state", DELIVERY_STATES);
export const contactStatus = pgEnum("contact_status", CONTACT_STATUSES);

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

/** Bytes as bytea: a Buffer on both drivers (PGlite reads a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/** The datacenters the administrator keeps (issue 21): an offer names one by its code. */
export const datacenters = pgTable("datacenters", {
  // The listing's `location` value: a slug of the name, never changed once offers use it.
  code: text("code").primaryKey(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** The financer's scale (`Barème LOA`): a coefficient per duration ('0.03150' = 3,150 %). */
export const leaseRates = pgTable(
  "lease_rates",
  {
    months: integer("months").primaryKey(),
    coefficient: numeric("coefficient", { precision: 8, scale: 5, mode: "string" }).notNull(),
  },
  (t) => [check("lease_rates_positive", sql`${t.months} > 0 and ${t.coefficient} > 0`)],
);

export const offers = pgTable(
  "offers",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    reference: text("reference").notNull(),
    description: text("description"),
    type: offerType("type").notNull().default("dedicated"),
    featured: boolean("featured").notNull().default(false),
    cpu: text("cpu").notNull(),
    ram: text("ram").notNull(),
    storage: text("storage").notNull(),
    network: text("network"),
    // Specs as numbers (issue 13), optional, beside the displayed text: filters and comparison.
    cpuCores: integer("cpu_cores"),
    ramGb: integer("ram_gb"),
    storageTb: numeric("storage_tb", { precision: 8, scale: 2, mode: "string" }),
    bandwidthGbps: numeric("bandwidth_gbps", { precision: 8, scale: 2, mode: "string" }),
    // The displayed monthly price HT (decision 038): typed, or for an LOA offer with a financed
    // amount the rent of its default duration, written from the lease scale (offer-price.ts).
    price: numeric("price", { precision: 10, scale: 2, mode: "string" }).notNull(),
    // One-off setup fee HT: null when not stated, 0 when offered.
    setupFee: numeric("setup_fee", { precision: 10, scale: 2, mode: "string" }),
    // LOA terms: duration in months and purchase option amount HT.
    loaMonths: integer("loa_months"),
    loaPurchaseOption: numeric("loa_purchase_option", { precision: 10, scale: 2, mode: "string" }),
    // The duration `price` is the rent of, when the lease scale priced it (null: typed).
    pricedMonths: integer("priced_months"),
    engagement: boolean("engagement").notNull().default(false),
    contractType: text("contract_type"),
    metaTitle: text("meta_title"),
    metaDescription: text("meta_description"),
    isActive: boolean("is_active").notNull().default(true),
    // Availability (issue 21): a delivery state, its delay in days when on order, a datacenter.
    delivery: deliveryState("delivery").notNull().default("stock_24h"),
    deliveryDays: integer("delivery_days"),
    // When the offer was created or last became deliverable (AVAILABLE_NOW) from not deliverable:
    // the Atom feed's date of a new or back-in-stock offer (issue 30).
    availableSince: timestamp("available_since", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    datacenter: text("datacenter").references(() => datacenters.code, {
      onDelete: "set null",
      onUpdate: "cascade",
    }),
    // The lease simulator (issue 21): financed amount HT and the durations offered, in months.
    financedAmount: numeric("financed_amount", { precision: 10, scale: 2, mode: "string" }),
    leaseDurations: integer("lease_durations").array(),
    // Option groups with their supplements (issue 21, offer-options.ts); null without options.
    options: jsonb("options").$type<OptionGroup[]>(),
    ...timestamps,
    /**
     * The four searchable fields, lower-cased, joined by a character nobody types (U+001F): one
     * LIKE on one trigram-indexed column instead of four ILIKEs (offers.server.ts).
     */
    searchText: text("search_text").generatedAlwaysAs(
      sql`lower(title || chr(31) || reference || chr(31) || cpu || chr(31) || ram)`,
    ),
  },
  (t) => [
    uniqueIndex("offers_slug_unique").on(t.slug),
    // The listing's order (newest first, id as tie-breaker): a page is read in index order. NULLS
    // FIRST is what a plain DESC sorts by; with NULLS LAST the planner would sort every row.
    index("offers_active_created_idx").on(
      t.isActive,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Sorting by price (both directions: a backward scan), id as tie-breaker.
    index("offers_active_price_id_idx").on(t.isActive, t.price, t.id),
    index("offers_featured_idx")
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.featured} and ${t.isActive}`),
    index("offers_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    // The admin search also matches the slug.
    index("offers_slug_trgm_idx").using("gin", sql`${t.slug} gin_trgm_ops`),
    index("offers_datacenter_idx").on(t.datacenter),
    check("offers_price_nonnegative", sql`${t.price} >= 0`),
    check(
      "offers_numbers_nonnegative",
      sql`coalesce(${t.cpuCores}, 0) >= 0 and coalesce(${t.ramGb}, 0) >= 0 and coalesce(${t.storageTb}, 0) >= 0 and coalesce(${t.bandwidthGbps}, 0) >= 0 and coalesce(${t.setupFee}, 0) >= 0 and coalesce(${t.loaMonths}, 0) >= 0 and coalesce(${t.loaPurchaseOption}, 0) >= 0 and coalesce(${t.deliveryDays}, 0) >= 0`,
    ),
  ],
);

export const contactRequests = pgTable(
  "contact_requests",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
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
    ownerId: integer("owner_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    // The first answer (first status change or note), set once by those writes: the dashboard's
    // time-to-first-answer chart reads it instead of probing both histories per request.
    firstAnsweredAt: timestamp("first_answered_at", { withTimezone: true, mode: "date" }),
    // A message to the buyer came back undelivered (issue 40): the address fails.
    emailFailedAt: timestamp("email_failed_at", { withTimezone: true, mode: "date" }),
    // Follow-ups (issue 40): 'À relancer le', a day in Europe/Paris (YYYY-MM-DD), or null.
    nextActionOn: date("next_action_on", { mode: "string" }),
    // The first answer is due by then (business hours from creation, follow-ups.server.ts); null
    // for requests made before the deadline existed. late_notified_at: the owner was told once.
    firstResponseDueAt: timestamp("first_response_due_at", { withTimezone: true, mode: "date" }),
    lateNotifiedAt: timestamp("late_notified_at", { withTimezone: true, mode: "date" }),
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
  ],
);

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
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    contactRequestId: integer("contact_request_id")
      .notNull()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    // The author's e-mail is copied: the note stays signed once the administrator is removed.
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    authorEmail: text("author_email").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("contact_notes_request_idx").on(t.contactRequestId, t.createdAt)],
);

/** Status history of a request (issue 10): who, when, from and to. */
export const contactStatusChanges = pgTable(
  "contact_status_changes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    contactRequestId: integer("contact_request_id")
      .notNull()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    fromStatus: contactStatus("from_status").notNull(),
    toStatus: contactStatus("to_status").notNull(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    authorEmail: text("author_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
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
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    contactRequestId: integer("contact_request_id")
      .notNull()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    fromOwnerEmail: text("from_owner_email"),
    toOwnerEmail: text("to_owner_email"),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    authorEmail: text("author_email"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("contact_owner_changes_request_idx").on(t.contactRequestId, t.createdAt)],
);

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
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    // The request the mail is about: erasing or purging it removes its mails.
    contactRequestId: integer("contact_request_id").references(() => contactRequests.id, {
      onDelete: "cascade",
    }),
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
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    // 'Réessayer' from the dashboard: created_at stays the request's date; the 3-day window
    // counts from the last retry.
    retriedAt: timestamp("retried_at", { withTimezone: true, mode: "date" }),
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
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    contactRequestId: integer("contact_request_id").references(() => contactRequests.id, {
      onDelete: "cascade",
    }),
    direction: messageDirection("direction").notNull(),
    kind: messageKind("kind").notNull().default("message"),
    // An incoming message's place: the mailbox, its UIDVALIDITY and the message's UID.
    mailboxKey: text("mailbox_key"),
    // The salesperson who wrote it (their e-mail copied, as a note's), or the buyer's address.
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
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
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
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
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
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
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("reply_templates_title_key").on(sql`lower(${t.title})`)],
);

export type RequestMessage = typeof requestMessages.$inferSelect;

/**
 * `Me prévenir` (issue 30): a visitor's alert on a sold-out or on-order offer. Double opt-in: it
 * counts once confirmed_at is set; it is done once notified_at is (one mail when the offer is
 * deliverable again). Only the SHA-256 of the links' token is kept, drawn again by each mail
 * (alerts.server.ts). Personal data: exported, erased and purged (7 days unconfirmed, 6 months
 * confirmed).
 */
export const offerAlerts = pgTable(
  "offer_alerts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    offerId: integer("offer_id")
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    tokenHash: text("token_hash"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
    notifiedAt: timestamp("notified_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    // One alert per address and offer, whatever the case of the address.
    uniqueIndex("offer_alerts_offer_email_unique").on(t.offerId, sql`lower(${t.email})`),
    uniqueIndex("offer_alerts_token_hash_unique").on(t.tokenHash),
    // The alerts waiting on an offer (admin counts, the mails when it is back).
    index("offer_alerts_waiting_idx")
      .on(t.offerId)
      .where(sql`${t.confirmedAt} is not null and ${t.notifiedAt} is null`),
    index("offer_alerts_email_lower_idx").on(sql`lower(${t.email})`),
    index("offer_alerts_created_idx").on(t.createdAt),
  ],
);

/**
 * Every link an alert's mails carried, by its token's SHA-256 (the mail worker draws one per mail):
 * each unsubscribe link works until the alert is gone, which takes its links with it.
 */
export const offerAlertLinks = pgTable(
  "offer_alert_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    alertId: integer("alert_id")
      .notNull()
      .references(() => offerAlerts.id, { onDelete: "cascade" }),
  },
  (t) => [index("offer_alert_links_alert_idx").on(t.alertId)],
);

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export const webhookDeliveryStatus = pgEnum("webhook_delivery_status", WEBHOOK_DELIVERY_STATUSES);

/**
 * Endpoints of outside tools (a CRM) that receive the requests' events (issue 22), signed to the
 * Standard Webhooks specification with their own secret (`whsec_…`, shown once at creation).
 */
export const webhookEndpoints = pgTable("webhook_endpoints", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  url: text("url").notNull(),
  // Event types the endpoint wants (WEBHOOK_EVENTS).
  events: text("events").array().notNull(),
  secret: text("secret").notNull(),
  ...timestamps,
});

/**
 * Outbox of webhook deliveries, one row per event and endpoint, claimed like mail_outbox. The body
 * is frozen when the event happens (it says what changed then); the request's erasure or purge
 * removes its deliveries, personal data included.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    contactRequestId: integer("contact_request_id").references(() => contactRequests.id, {
      onDelete: "cascade",
    }),
    eventType: text("event_type").notNull(),
    payload: text("payload").notNull(),
    status: webhookDeliveryStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt.desc()),
    index("webhook_deliveries_request_idx").on(t.contactRequestId),
  ],
);

export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role").notNull().default("admin"),
    // Second factor (issue 20): the TOTP key once enrolled, the key being enrolled (never sent
    // back by a form), and the last 30-second step accepted (a code works once).
    totpSecret: text("totp_secret"),
    totpPendingSecret: text("totp_pending_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true, mode: "date" }),
    totpLastStep: integer("totp_last_step"),
    // A password someone else chose (generated at first start, set in Administrateurs): the
    // account changes it at its first sign-in before anything else.
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    // The day (Europe/Paris, YYYY-MM-DD) of the last morning digest of follow-ups (issue 40).
    digestSentOn: date("digest_sent_on", { mode: "string" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

/** Single-use recovery codes of a second factor, salted SHA-256 (80 random bits each). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

export const sessions = pgTable(
  "sessions",
  {
    // SHA-256 of the token sent in the cookie: a leaked table does not leak usable sessions.
    idHash: text("id_hash").primaryKey(),
    // What `Mon compte` names a session by (Révoquer): never the hash.
    publicId: integer("public_id").generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    // Absolute end (SESSION_MAX_HOURS after sign-in); the idle end is last_seen_at + SESSION_IDLE_MINUTES.
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    // When the account last proved who it is here (sign-in or `Confirmez votre identité`).
    authenticatedAt: timestamp("authenticated_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    userAgent: text("user_agent"),
    ip: text("ip"),
    // Password checked, second factor not yet: opens nothing but the code step of /auth.
    secondFactorPending: boolean("second_factor_pending").notNull().default(false),
  },
  (t) => [
    index("sessions_user_idx").on(t.userId),
    index("sessions_expires_idx").on(t.expiresAt),
    uniqueIndex("sessions_public_id_unique").on(t.publicId),
  ],
);

/**
 * `Mot de passe oublié ?` (issue 20): one row per link mailed. Only the SHA-256 of the link's
 * token is kept; a link works once (used_at), until expires_at (30 minutes), and a newer request
 * of the same account deletes the older unused ones.
 */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("password_resets_token_hash_unique").on(t.tokenHash),
    index("password_resets_user_idx").on(t.userId),
    index("password_resets_expires_idx").on(t.expiresAt),
  ],
);

/**
 * The journal of who did what in the admin area (issue 20): append-only. No foreign key, so that
 * removing an account changes no row; the account's e-mail is copied. A trigger (migration
 * `*_audit_journal_custom`) refuses UPDATE and DELETE but the retention's.
 */
export const auditJournal = pgTable(
  "audit_journal",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    actorId: integer("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    target: text("target"),
    ip: text("ip"),
    requestId: text("request_id"),
  },
  (t) => [
    index("audit_journal_at_idx").on(t.at.desc(), t.id.desc()),
    index("audit_journal_actor_idx").on(t.actorEmail, t.at.desc()),
    index("audit_journal_action_idx").on(t.action, t.at.desc()),
  ],
);

/**
 * A request's quote (issue 21): its number `DEV-YYYY-NNNNN`, given at the first download and kept
 * with what the quote said then, so that every later download is the same document. One per
 * request (unique), one request per number (unique); erased with its request.
 */
export const quotes = pgTable(
  "quotes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    contactRequestId: integer("contact_request_id")
      .notNull()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    number: text("number").notNull().unique("quotes_number_key"),
    issuedAt: timestamp("issued_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    content: jsonb("content").$type<QuoteSource>().notNull(),
    // Sent from the request's page (issue 29): to whom, with what, valid until when. A request's
    // latest quote is the current one; sending another sets replaced_at on the previous.
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    sentById: integer("sent_by_id").references((): AnyPgColumn => users.id, {
      onDelete: "set null",
    }),
    validUntil: timestamp("valid_until", { withTimezone: true, mode: "date" }),
    terms: jsonb("terms").$type<SentQuoteTerms>(),
    // SHA-256 of the buyer's link's token, drawn when the mail leaves (as the password reset's).
    tokenHash: text("token_hash").unique("quotes_token_hash_key"),
    replacedAt: timestamp("replaced_at", { withTimezone: true, mode: "date" }),
    // The answer, once: `Bon pour accord` (a simple electronic signature) or `Refuser`.
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    acceptance: jsonb("acceptance").$type<QuoteAcceptance>(),
    declinedAt: timestamp("declined_at", { withTimezone: true, mode: "date" }),
    declineReason: text("decline_reason"),
    // The owner's reminder three days before expiry, queued once.
    reminderQueuedAt: timestamp("reminder_queued_at", { withTimezone: true, mode: "date" }),
    // The buyer's first opening of the sent quote (issue 40): its owner is told once.
    openedAt: timestamp("opened_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("quotes_request_idx").on(t.contactRequestId, t.id.desc()),
    index("quotes_open_idx")
      .on(t.validUntil)
      .where(
        sql`${t.sentAt} is not null and ${t.acceptedAt} is null and ${t.declinedAt} is null and ${t.replacedAt} is null and ${t.reminderQueuedAt} is null`,
      ),
  ],
);

export const signedDocumentKind = pgEnum("signed_document_kind", SIGNED_DOCUMENT_KINDS);

/**
 * What a person signed (issue 40): the exact PDF bytes with their SHA-256, the seller and terms
 * they were signed under, and the acceptance. Written once: a trigger (migration
 * `*_signed_documents_custom`) refuses UPDATE and DELETE but the retention's, and with two roles
 * the server's holds only INSERT and SELECT. No foreign key: the document outlives its request
 * (prospect purge, erasure) for its own legal period (SIGNED_QUOTE_RETENTION_YEARS).
 */
export const signedDocuments = pgTable(
  "signed_documents",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: signedDocumentKind("kind").notNull(),
    // The document's own number (a quote's DEV-YYYY-NNNNN).
    reference: text("reference").notNull(),
    // Where it came from, while that exists (the quote's row, its request).
    sourceId: integer("source_id"),
    contactRequestId: integer("contact_request_id"),
    signedAt: timestamp("signed_at", { withTimezone: true, mode: "date" }).notNull(),
    fileName: text("file_name").notNull(),
    pdf: bytea("pdf").notNull(),
    pdfSha256: text("pdf_sha256").notNull(),
    seller: jsonb("seller").$type<SignedSeller>().notNull(),
    terms: jsonb("terms").$type<SignedTerms>().notNull(),
    party: jsonb("party").$type<SignedParty>().notNull(),
    // The party's address, lower-cased: the export and the erasure find documents by it.
    partyEmail: text("party_email").notNull(),
    acceptance: jsonb("acceptance").$type<SignedAcceptance>().notNull(),
  },
  (t) => [
    uniqueIndex("signed_documents_kind_reference_key").on(t.kind, t.reference),
    index("signed_documents_source_idx").on(t.kind, t.sourceId),
    index("signed_documents_party_email_idx").on(t.partyEmail),
    index("signed_documents_signed_at_idx").on(t.signedAt),
    check("signed_documents_sha256_hex", sql`${t.pdfSha256} ~ '^[0-9a-f]{64}$'`),
    check("signed_documents_party_email_lower", sql`${t.partyEmail} = lower(${t.partyEmail})`),
  ],
);

/**
 * The documents a financer asks for an LOA (issue 41), as the administrator lists them in `Barème
 * LOA`: what each is and what it is for. A request's file keeps each upload's title as it was.
 */
export const leaseDocumentKinds = pgTable(
  "lease_document_kinds",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    title: text("title").notNull(),
    purpose: text("purpose").notNull(),
    position: integer("position").notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex("lease_document_kinds_title_key").on(sql`lower(${t.title})`)],
);

export const leaseDocumentStatus = pgEnum("lease_document_status", ["received", "refused"]);

/**
 * A file the buyer uploaded for their LOA (issue 41): the bytes, kept in the database (every
 * instance sees them, the backup carries them), their type decided from the content and their
 * SHA-256. A refused one stays beside the one sent again. Personal data: they go with the request.
 */
export const leaseDocuments = pgTable(
  "lease_documents",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    contactRequestId: integer("contact_request_id")
      .notNull()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    kindId: integer("kind_id").references(() => leaseDocumentKinds.id, { onDelete: "set null" }),
    kindTitle: text("kind_title").notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    data: bytea("data").notNull(),
    status: leaseDocumentStatus("status").notNull().default("received"),
    refusalReason: text("refusal_reason"),
    reviewedById: integer("reviewed_by_id").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("lease_documents_request_idx").on(t.contactRequestId, t.kindId, t.createdAt),
    check("lease_documents_sha256_hex", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** An equipment line of a delivery report: what was delivered and its serial number. */
export type DeliveredItem = { label: string; serial: string };

/**
 * An accepted LOA quote's file (issue 41), one per request: opened at the acceptance, complete
 * once every listed document is received, sent to the financer, answered, then delivered against
 * the delivery report the buyer signs (kept in signed_documents, kind delivery_report).
 */
export const leaseFiles = pgTable("lease_files", {
  contactRequestId: integer("contact_request_id")
    .primaryKey()
    .references(() => contactRequests.id, { onDelete: "cascade" }),
  quoteId: integer("quote_id").references(() => quotes.id, { onDelete: "set null" }),
  openedAt: timestamp("opened_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  completeAt: timestamp("complete_at", { withTimezone: true, mode: "date" }),
  // The buyer told what is missing: at most once a day (Europe/Paris day).
  missingRemindedOn: date("missing_reminded_on", { mode: "string" }),
  financerSentAt: timestamp("financer_sent_at", { withTimezone: true, mode: "date" }),
  financerSentById: integer("financer_sent_by_id").references(() => users.id, {
    onDelete: "set null",
  }),
  // Where the archive was mailed (null: downloaded only).
  financerSentTo: text("financer_sent_to"),
  financerAnswer: text("financer_answer", { enum: ["approved", "refused"] }),
  financerAnsweredOn: date("financer_answered_on", { mode: "string" }),
  financerReference: text("financer_reference"),
  financerRecordedById: integer("financer_recorded_by_id").references(() => users.id, {
    onDelete: "set null",
  }),
  deliveredItems: jsonb("delivered_items").$type<DeliveredItem[]>(),
  deliveryEnteredAt: timestamp("delivery_entered_at", { withTimezone: true, mode: "date" }),
  deliverySignedAt: timestamp("delivery_signed_at", { withTimezone: true, mode: "date" }),
});

// Fixed-window counters shared by every instance (sign-in and contact rate limits).
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true, mode: "date" }).notNull(),
});

// Small shared key/value state, e.g. the version of the public catalogue used to invalidate caches.
export const appState = pgTable("app_state", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export type Offer = typeof offers.$inferSelect;
export type Datacenter = typeof datacenters.$inferSelect;
export type NewOffer = typeof offers.$inferInsert;
export type ContactRequest = typeof contactRequests.$inferSelect;
export type User = typeof users.$inferSelect;
export type ContactNote = typeof contactNotes.$inferSelect;
export type ContactStatusChange = typeof contactStatusChanges.$inferSelect;
export type ContactOwnerChange = typeof contactOwnerChanges.$inferSelect;
export type MailOutboxRow = typeof mailOutbox.$inferSelect;
export type OfferAlert = typeof offerAlerts.$inferSelect;
export type PasswordReset = typeof passwordResets.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type Quote = typeof quotes.$inferSelect;
export type SignedDocument = typeof signedDocuments.$inferSelect;
