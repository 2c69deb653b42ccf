// Quotes, signed documents and the LOA file.
import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { QuoteSource } from "~/lib/quote";
import type { QuoteAcceptance, SentQuoteTerms } from "~/lib/quote";
import {
  SIGNED_DOCUMENT_KINDS,
  type SignedAcceptance,
  type SignedParty,
  type SignedSeller,
  type SignedTerms,
} from "~/platform/signed-documents";
import { at, bytea, createdAt, identity, timestamps } from "./columns.server";
import { requestRef } from "./requests.server";
import { byUser } from "./accounts.server";

/**
 * A request's quote (issue 21): its number `DEV-YYYY-NNNNN`, given at the first download and kept
 * with what the quote said then, so that every later download is the same document. One per
 * request (unique), one request per number (unique); erased with its request.
 */
export const quotes = pgTable(
  "quotes",
  {
    id: identity(),
    contactRequestId: requestRef().notNull(),
    number: text("number").notNull().unique("quotes_number_key"),
    issuedAt: at("issued_at").notNull().defaultNow(),
    content: jsonb("content").$type<QuoteSource>().notNull(),
    // Sent from the request's page (issue 29): to whom, with what, valid until when. A request's
    // latest quote is the current one; sending another sets replaced_at on the previous.
    sentAt: at("sent_at"),
    sentById: byUser("sent_by_id"),
    validUntil: at("valid_until"),
    terms: jsonb("terms").$type<SentQuoteTerms>(),
    // SHA-256 of the buyer's link's token, drawn when the mail leaves (as the password reset's).
    tokenHash: text("token_hash").unique("quotes_token_hash_key"),
    replacedAt: at("replaced_at"),
    // The answer, once: `Bon pour accord` (a simple electronic signature) or `Refuser`.
    acceptedAt: at("accepted_at"),
    acceptance: jsonb("acceptance").$type<QuoteAcceptance>(),
    declinedAt: at("declined_at"),
    declineReason: text("decline_reason"),
    // The owner's reminder three days before expiry, queued once.
    reminderQueuedAt: at("reminder_queued_at"),
    // The buyer's first opening of the sent quote (issue 40): its owner is told once.
    openedAt: at("opened_at"),
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
    id: identity(),
    kind: signedDocumentKind("kind").notNull(),
    // The document's own number (a quote's DEV-YYYY-NNNNN).
    reference: text("reference").notNull(),
    // Where it came from, while that exists (the quote's row, its request).
    sourceId: integer("source_id"),
    contactRequestId: integer("contact_request_id"),
    signedAt: at("signed_at").notNull(),
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
    id: identity(),
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
    id: identity(),
    contactRequestId: requestRef().notNull(),
    kindId: integer("kind_id").references(() => leaseDocumentKinds.id, { onDelete: "set null" }),
    kindTitle: text("kind_title").notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    data: bytea("data").notNull(),
    status: leaseDocumentStatus("status").notNull().default("received"),
    refusalReason: text("refusal_reason"),
    reviewedById: byUser("reviewed_by_id"),
    reviewedAt: at("reviewed_at"),
    createdAt: createdAt(),
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
  contactRequestId: requestRef().primaryKey(),
  quoteId: integer("quote_id").references(() => quotes.id, { onDelete: "set null" }),
  openedAt: at("opened_at").notNull().defaultNow(),
  completeAt: at("complete_at"),
  // The buyer told what is missing: at most once a day (Europe/Paris day).
  missingRemindedOn: date("missing_reminded_on", { mode: "string" }),
  financerSentAt: at("financer_sent_at"),
  financerSentById: byUser("financer_sent_by_id"),
  // Where the archive was mailed (null: downloaded only).
  financerSentTo: text("financer_sent_to"),
  financerAnswer: text("financer_answer", { enum: ["approved", "refused"] }),
  financerAnsweredOn: date("financer_answered_on", { mode: "string" }),
  financerReference: text("financer_reference"),
  financerRecordedById: byUser("financer_recorded_by_id"),
  deliveredItems: jsonb("delivered_items").$type<DeliveredItem[]>(),
  deliveryEnteredAt: at("delivery_entered_at"),
  deliverySignedAt: at("delivery_signed_at"),
});

export type Quote = typeof quotes.$inferSelect;
export type SignedDocument = typeof signedDocuments.$inferSelect;
