import { configurationLines } from "~/lib/offer-options";
import { vatNumberOf } from "~/lib/siren";
import { createHmac, randomBytes } from "node:crypto";
import { asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import { sentColumns } from "~/platform/contact-columns.server";
import {
  noteColumns,
  ownerChangeColumns,
  rowsOfRequests,
  statusChangeColumns,
} from "~/features/desk/contact-request.server";
import { alertsOfAddress, deleteAlertsOfAddress } from "~/features/alerts/alerts.server";
import {
  deleteUnattachedOfAddress,
  unattachedOfAddress,
} from "~/features/conversation/unattached.server";
import { attachmentsOfMessages } from "~/features/conversation/attachments.server";
import { SIGNED_DOCUMENT_LABELS, signedKeptUntil } from "~/platform/signed-documents";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { journal, type Journaled } from "~/platform/journal.server";
import {
  signedDocumentsOfAddress,
  type SignedDocumentMetadata,
} from "~/platform/signed-documents.server";
import { quoteState, type QuoteState } from "~/features/quotes/quote-sending.server";
import {
  appState,
  contactNotes,
  contactOwnerChanges,
  contactRequests,
  contactStatusChanges,
  leaseDocuments,
  leaseFiles,
  mailOutbox,
  offers,
  quotes,
  requestMessages,
} from "~/platform/schema.server";

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

/** What the person is told about the mails their requests caused. */
const mailColumns = {
  id: mailOutbox.id,
  contactRequestId: mailOutbox.contactRequestId,
  kind: mailOutbox.kind,
  status: mailOutbox.status,
  attempts: mailOutbox.attempts,
  lastError: mailOutbox.lastError,
  createdAt: mailOutbox.createdAt,
  sentAt: mailOutbox.sentAt,
};

/** The messages exchanged with the person on their requests' pages (issue 40). */
/** The documents of an LOA file (issue 41), with their bytes: the export gives them back. */
const leaseDocumentColumns = {
  id: leaseDocuments.id,
  contactRequestId: leaseDocuments.contactRequestId,
  kindTitle: leaseDocuments.kindTitle,
  fileName: leaseDocuments.fileName,
  contentType: leaseDocuments.contentType,
  size: leaseDocuments.size,
  sha256: leaseDocuments.sha256,
  status: leaseDocuments.status,
  refusalReason: leaseDocuments.refusalReason,
  data: leaseDocuments.data,
  createdAt: leaseDocuments.createdAt,
};

const messageColumns = {
  id: requestMessages.id,
  contactRequestId: requestMessages.contactRequestId,
  direction: requestMessages.direction,
  authorEmail: requestMessages.authorEmail,
  subject: requestMessages.subject,
  body: requestMessages.body,
  createdAt: requestMessages.createdAt,
};

/** The rows of one address, matched case-insensitively (index on lower(email)). */
function ofAddress(email: string): SQL {
  return sql`lower(${contactRequests.email}) = lower(${email})`;
}

export type PersonalData = Awaited<ReturnType<typeof findPersonalData>>;

/**
 * What is held about one address: its requests' rows, its availability alerts (issue 30), and
 * the documents it signed (issue 40: kept for their own legal period, not erased).
 */
export type PersonalDataCounts = DeletionCounts & { alerts: number; signedDocuments: number };

/**
 * Everything held about one e-mail address: its requests, with their notes, history and mails,
 * its availability alerts (issue 30) and the documents it signed (issue 40), without their bytes.
 */
export async function findPersonalData(email: string, database: Database = db()) {
  const [found, alerts, signedDocuments, unattachedMessages] = await Promise.all([
    findContactData(email, database),
    alertsOfAddress(email, database),
    signedDocumentsOfAddress(email, database),
    unattachedOfAddress(email, database),
  ]);
  // Issue 40: the files their messages carried (names, types, sizes, SHA-256; not the bytes).
  const files = await attachmentsOfMessages(
    [...found.requests.flatMap((r) => r.messages), ...unattachedMessages].map((m) => m.id),
    database,
  );
  const withFiles = <T extends { id: number }>(message: T) => ({
    ...message,
    attachments: (files.get(message.id) ?? []).map(({ filename, contentType, size, sha256 }) => ({
      filename,
      contentType,
      size,
      sha256,
    })),
  });
  return {
    ...found,
    requests: found.requests.map((r) => ({ ...r, messages: r.messages.map(withFiles) })),
    alerts,
    signedDocuments,
    unattachedMessages: unattachedMessages.map(withFiles),
    counts: {
      ...found.counts,
      // Issue 40: with the messages they wrote that no request was found for.
      messages: found.counts.messages + unattachedMessages.length,
      alerts: alerts.length,
      signedDocuments: signedDocuments.length,
    } satisfies PersonalDataCounts,
  };
}

/** A file a message carried, as the person is told about it: what it is, not its bytes. */
function exportedAttachment(file: {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}) {
  return { fileName: file.filename, type: file.contentType, bytes: file.size, sha256: file.sha256 };
}

/** A signed document as the person is told about it: what was recorded, and that its PDF is kept. */
function exportedSignedDocument(document: SignedDocumentMetadata, years: number) {
  const { acceptance } = document;
  return {
    kind: document.kind,
    label: SIGNED_DOCUMENT_LABELS[document.kind],
    reference: document.reference,
    signedAt: document.signedAt.toISOString(),
    keptUntil: signedKeptUntil(document.signedAt, years).toISOString(),
    seller: document.seller,
    termsOfSale: document.terms,
    addressedTo: document.party,
    acceptance: {
      name: acceptance.name,
      role: acceptance.role,
      at: acceptance.at,
      ipAddress: acceptance.ip,
      userAgent: acceptance.userAgent,
    },
    pdf: {
      fileName: document.fileName,
      bytes: document.pdfBytes,
      sha256: document.pdfSha256,
      available: true,
      note: "Le PDF signé est conservé tel quel ; il vous est remis sur simple demande.",
    },
  };
}

async function findContactData(email: string, database: Database) {
  const requests = await database
    .select({
      ...sentColumns,
      offerId: contactRequests.offerId,
      offerTitle: sql<string | null>`coalesce(${offers.title}, ${contactRequests.offerTitle})`,
      offerReference: sql<
        string | null
      >`coalesce(${offers.reference}, ${contactRequests.offerReference})`,
      status: contactRequests.status,
      suspectedSpam: contactRequests.suspectedSpam,
      updatedAt: contactRequests.updatedAt,
      // `Ma demande` (issue 42): whether a link is live (its hash is no one's business).
      followLink: sql<boolean>`${contactRequests.followTokenHash} is not null`,
    })
    .from(contactRequests)
    .leftJoin(offers, eq(offers.id, contactRequests.offerId))
    .where(ofAddress(email))
    .orderBy(desc(contactRequests.createdAt), desc(contactRequests.id));
  const ids = requests.map((r) => r.id);
  if (ids.length === 0) return { requests: [], counts: NO_ROWS };
  const [notes, statusChanges, ownerChanges, mails, quoteRows, messages, documents, files] =
    await Promise.all([
      rowsOfRequests(contactNotes, noteColumns, ids, "asc", database),
      rowsOfRequests(contactStatusChanges, statusChangeColumns, ids, "asc", database),
      rowsOfRequests(contactOwnerChanges, ownerChangeColumns, ids, "asc", database),
      rowsOfRequests(mailOutbox, mailColumns, ids, "asc", database),
      quotesOfRequests(ids, database),
      rowsOfRequests(requestMessages, messageColumns, ids, "asc", database),
      rowsOfRequests(leaseDocuments, leaseDocumentColumns, ids, "asc", database),
      database.select().from(leaseFiles).where(inArray(leaseFiles.contactRequestId, ids)),
    ]);
  const of = <T extends { contactRequestId: number | null }>(rows: T[], id: number) =>
    rows.filter((row) => row.contactRequestId === id);
  return {
    requests: requests.map((request) => ({
      ...request,
      notes: of(notes, request.id),
      statusChanges: of(statusChanges, request.id),
      ownerChanges: of(ownerChanges, request.id),
      mails: of(mails, request.id),
      quotes: of(quoteRows, request.id),
      messages: of(messages, request.id),
      leaseDocuments: of(documents, request.id),
      leaseFile: files.find((file) => file.contactRequestId === request.id) ?? null,
    })),
    counts: {
      requests: requests.length,
      notes: notes.length,
      statusChanges: statusChanges.length,
      mails: mails.length,
      quotes: quoteRows.length,
      messages: messages.length,
      documents: documents.length,
    } satisfies DeletionCounts,
  };
}

/** What the person is told about the quotes of their requests (not the link's hash). */
const quoteColumns = {
  id: quotes.id,
  contactRequestId: quotes.contactRequestId,
  number: quotes.number,
  issuedAt: quotes.issuedAt,
  sentAt: quotes.sentAt,
  validUntil: quotes.validUntil,
  replacedAt: quotes.replacedAt,
  acceptedAt: quotes.acceptedAt,
  acceptance: quotes.acceptance,
  declinedAt: quotes.declinedAt,
  declineReason: quotes.declineReason,
};
type QuoteRow = SelectResultFields<typeof quoteColumns>;

/** The quotes kept for some requests (sent or only downloaded), oldest first, with their state. */
async function quotesOfRequests(ids: number[], database: Database) {
  const rows = await database
    .select(quoteColumns)
    .from(quotes)
    .where(inArray(quotes.contactRequestId, ids))
    .orderBy(asc(quotes.id));
  return rows.map((row) => ({ ...row, state: quoteState(row) }));
}

/** A quote as the person is told about it: what was sent, and their answer as recorded. */
function exportedQuote(quote: QuoteRow & { state: QuoteState }) {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  const { acceptance } = quote;
  return {
    number: quote.number,
    issuedAt: iso(quote.issuedAt),
    sentAt: iso(quote.sentAt),
    validUntil: iso(quote.validUntil),
    status: quote.state,
    // `Bon pour accord`: the acceptance record (a simple electronic signature) as stored.
    accepted:
      quote.acceptedAt && acceptance
        ? {
            at: iso(quote.acceptedAt),
            name: acceptance.name,
            role: acceptance.role,
            ipAddress: acceptance.ip,
            userAgent: acceptance.userAgent,
            pdfSha256: acceptance.pdfSha256,
          }
        : null,
    declined: quote.declinedAt ? { at: iso(quote.declinedAt), reason: quote.declineReason } : null,
  };
}

/**
 * The JSON file handed to the person (RGPD art. 15 and 20): what they sent and what was done with
 * it. The administrators' own addresses (authors of notes and status changes) are left out: they
 * are other people's data.
 */
export function personalDataDocument(
  email: string,
  data: PersonalData,
  controller: { name: string; address: string; email: string },
  now = new Date(),
) {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    format: "personal-data-export/1",
    exportedAt: now.toISOString(),
    controller,
    email,
    contactRequests: data.requests.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      phone: r.phone,
      company: r.company,
      siren: r.siren,
      vatNumber: r.siren ? vatNumberOf(r.siren) : null,
      message: r.message,
      offer: r.offerTitle ? { title: r.offerTitle, reference: r.offerReference } : null,
      configuration: r.configuration ? configurationLines(r.configuration) : null,
      status: r.status,
      suspectedSpam: r.suspectedSpam,
      // Issue 42: where the visit came from, and whether a `Ma demande` link opens the request.
      origin: {
        source: r.source,
        medium: r.medium,
        campaign: r.campaign,
        term: r.term,
        content: r.content,
        referrer: r.referrer,
      },
      followLink: r.followLink,
      createdAt: iso(r.createdAt),
      updatedAt: iso(r.updatedAt),
      notes: r.notes.map((n) => ({ body: n.body, createdAt: iso(n.createdAt) })),
      statusChanges: r.statusChanges.map((c) => ({
        from: c.fromStatus,
        to: c.toStatus,
        at: iso(c.createdAt),
      })),
      // When the request was given to someone of the sales team or taken back (who: their data).
      ownerChanges: r.ownerChanges.map((c) => ({
        assigned: c.toOwnerEmail !== null,
        at: iso(c.createdAt),
      })),
      mails: r.mails.map((m) => ({
        kind: m.kind,
        status: m.status,
        createdAt: iso(m.createdAt),
        sentAt: iso(m.sentAt),
      })),
      // Issue 29: each quote of the request (number, dates, status) and the answer recorded.
      quotes: r.quotes.map(exportedQuote),
      // Issue 40: the messages exchanged (from the team: who wrote them is their data).
      messages: r.messages.map((m) => ({
        from: m.direction === "outbound" ? "team" : "you",
        subject: m.subject,
        body: m.body,
        at: iso(m.createdAt),
        attachments: m.attachments.map(exportedAttachment),
      })),
      // Issue 41: the LOA file, and the documents sent for it, bytes included (base64).
      leaseFile: r.leaseFile
        ? {
            openedAt: iso(r.leaseFile.openedAt),
            completeAt: iso(r.leaseFile.completeAt),
            sentToFinancerAt: iso(r.leaseFile.financerSentAt),
            financerAnswer: r.leaseFile.financerAnswer,
            financerAnsweredOn: r.leaseFile.financerAnsweredOn,
            deliveredItems: r.leaseFile.deliveredItems,
            deliverySignedAt: iso(r.leaseFile.deliverySignedAt),
          }
        : null,
      leaseDocuments: r.leaseDocuments.map((d) => ({
        document: d.kindTitle,
        fileName: d.fileName,
        type: d.contentType,
        bytes: d.size,
        sha256: d.sha256,
        status: d.status,
        refusalReason: d.refusalReason,
        sentAt: iso(d.createdAt),
        contentBase64: d.data.toString("base64"),
      })),
    })),
    // Issue 40: what the person signed, kept for its legal period apart from the requests.
    signedDocuments: data.signedDocuments.map((d) =>
      exportedSignedDocument(d, env().SIGNED_QUOTE_RETENTION_YEARS),
    ),
    // Issue 40: messages they wrote to the sales mailbox that no request was found for.
    unattachedMessages: data.unattachedMessages.map((m) => ({
      subject: m.subject,
      body: m.body,
      at: iso(m.createdAt),
      attachments: m.attachments.map(exportedAttachment),
    })),
    // `Me prévenir` (issue 30): the offer, when asked, confirmed and mailed.
    availabilityAlerts: data.alerts.map((a) => ({
      email: a.email,
      offer: { title: a.offerTitle, reference: a.offerReference },
      createdAt: iso(a.createdAt),
      confirmedAt: iso(a.confirmedAt),
      notifiedAt: iso(a.notifiedAt),
    })),
  };
}

/** What an erasure did: what went, and the signed documents it kept (the law requires them). */
export type Erasure = {
  subject: string;
  counts: DeletionCounts & { alerts: number };
  kept: { reference: string; signedAt: Date }[];
};

/**
 * Erases every request and alert of one address and all that is attached to them, in one transaction with
 * its journal entry (the person named by `addressToken`): no entry, nothing erased.
 * Quotes go with their request; the numbering keeps what it needs: no number is given twice, and
 * the entry names the numbers erased. What the person signed (issue 40: the accepted quote's PDF
 * and acceptance, in signed_documents) is kept for its legal period (RGPD art. 17(3)(b) and (e)):
 * the result and the entry name it (docs/personal-data.md).
 */
export async function erasePersonalData(
  email: string,
  change: Journaled,
  database: Database = db(),
): Promise<Erasure> {
  const subject = await addressToken(email, database);
  let kept: Erasure["kept"] = [];
  const counts = await database.transaction(async (tx) => {
    const numbers = await tx
      .select({ number: quotes.number })
      .from(quotes)
      .innerJoin(contactRequests, eq(contactRequests.id, quotes.contactRequestId))
      .where(ofAddress(email))
      .orderBy(asc(quotes.id));
    const requests = await deleteContactRequests(ofAddress(email), {}, tx);
    const erased = {
      ...requests,
      messages: requests.messages + (await deleteUnattachedOfAddress(email, tx)),
      alerts: await deleteAlertsOfAddress(email, tx),
    };
    kept = (await signedDocumentsOfAddress(email, tx)).map((d) => ({
      reference: d.reference,
      signedAt: d.signedAt,
    }));
    const target = [
      `personne ${subject}`,
      ...(numbers.length ? [`devis ${numbers.map((q) => q.number).join(", ")}`] : []),
      ...(kept.length ? [`conservés (signés) ${kept.map((d) => d.reference).join(", ")}`] : []),
    ];
    await journal.recordWithChange(tx, change.context, {
      actor: change.actor,
      action: "personal-data-erased",
      target: target.join(", "),
    });
    return erased;
  });
  return { subject, counts, kept };
}

const LOG_KEY = "personal_data_log_key";

/**
 * A token that names one address in the logs without revealing it: HMAC-SHA256 of the lower-cased
 * address under a random key generated once per database (app_state), cut to 16 hex characters.
 * Whoever holds the database can check whether a given address was erased; nobody can read one
 * back from a log.
 */
export async function addressToken(email: string, database: Database = db()): Promise<string> {
  await database
    .insert(appState)
    .values({ key: LOG_KEY, value: randomBytes(32).toString("hex") })
    .onConflictDoNothing();
  const [row] = await database
    .select({ value: appState.value })
    .from(appState)
    .where(eq(appState.key, LOG_KEY));
  return createHmac("sha256", row.value).update(email.toLowerCase()).digest("hex").slice(0, 16);
}
