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
  deleteSavedSearchesOfAddress,
  savedSearchesOfAddress,
} from "~/features/saved-searches/saved-searches.server";
import {
  deleteUnattachedOfAddress,
  unattachedOfAddress,
} from "~/features/conversation/unattached.server";
import { attachmentsOfMessages } from "~/features/conversation/attachments.server";
import { db, type Database } from "~/platform/db.server";
import { journal, type Journaled } from "~/platform/journal.server";
import { signedDocumentsOfAddress } from "~/platform/signed-documents.server";
import { quoteState } from "~/features/quotes/quote-sending.server";
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
import { type DeletionCounts, NO_ROWS, deleteContactRequests } from "./request-deletion.server";

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

/** The messages exchanged with the person on their requests' pages (issue 40). */
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
export type PersonalDataCounts = DeletionCounts & {
  alerts: number;
  savedSearches: number;
  signedDocuments: number;
};

/**
 * Everything held about one e-mail address: its requests, with their notes, history and mails,
 * its availability alerts (issue 30) and the documents it signed (issue 40), without their bytes.
 */
export async function findPersonalData(email: string, database: Database = db()) {
  const [found, alerts, savedSearches, signedDocuments, unattachedMessages] = await Promise.all([
    findContactData(email, database),
    alertsOfAddress(email, database),
    savedSearchesOfAddress(email, database),
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
    savedSearches,
    signedDocuments,
    unattachedMessages: unattachedMessages.map(withFiles),
    counts: {
      ...found.counts,
      // Issue 40: with the messages they wrote that no request was found for.
      messages: found.counts.messages + unattachedMessages.length,
      alerts: alerts.length,
      savedSearches: savedSearches.length,
      signedDocuments: signedDocuments.length,
    } satisfies PersonalDataCounts,
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

export type QuoteRow = SelectResultFields<typeof quoteColumns>;

/** The quotes kept for some requests (sent or only downloaded), oldest first, with their state. */
async function quotesOfRequests(ids: number[], database: Database) {
  const rows = await database
    .select(quoteColumns)
    .from(quotes)
    .where(inArray(quotes.contactRequestId, ids))
    .orderBy(asc(quotes.id));
  return rows.map((row) => ({ ...row, state: quoteState(row) }));
}

/** What an erasure did: what went, and the signed documents it kept (the law requires them). */
export type Erasure = {
  subject: string;
  counts: DeletionCounts & { alerts: number; savedSearches: number };
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
      savedSearches: await deleteSavedSearchesOfAddress(email, tx),
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
