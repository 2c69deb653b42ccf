// One request's page: what the visitor sent, the offer, notes and history.
import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import { contactReference } from "~/platform/contact-reference";
import { db, type Database } from "~/platform/db.server";
import { offerColumns, sentColumns } from "~/platform/contact-columns.server";
import {
  contactNotes,
  contactOwnerChanges,
  contactRequests,
  contactStatusChanges,
  offers,
  quotes,
  type mailOutbox,
  type requestMessages,
  type leaseDocuments,
} from "~/platform/schema.server";
import { withOffer } from "~/platform/contact-columns.server";

/** The columns of a request's notes and status history (its page, the personal-data page). */
export const noteColumns = {
  id: contactNotes.id,
  contactRequestId: contactNotes.contactRequestId,
  authorEmail: contactNotes.authorEmail,
  body: contactNotes.body,
  createdAt: contactNotes.createdAt,
};
export const ownerChangeColumns = {
  id: contactOwnerChanges.id,
  contactRequestId: contactOwnerChanges.contactRequestId,
  fromOwnerEmail: contactOwnerChanges.fromOwnerEmail,
  toOwnerEmail: contactOwnerChanges.toOwnerEmail,
  authorEmail: contactOwnerChanges.authorEmail,
  createdAt: contactOwnerChanges.createdAt,
};
export const statusChangeColumns = {
  id: contactStatusChanges.id,
  contactRequestId: contactStatusChanges.contactRequestId,
  fromStatus: contactStatusChanges.fromStatus,
  toStatus: contactStatusChanges.toStatus,
  authorEmail: contactStatusChanges.authorEmail,
  createdAt: contactStatusChanges.createdAt,
};

/** The rows that belong to some requests (notes, status changes, mails), by date then id. */
export function rowsOfRequests<C extends SelectedFields>(
  table:
    | typeof contactNotes
    | typeof contactStatusChanges
    | typeof contactOwnerChanges
    | typeof mailOutbox
    | typeof requestMessages
    | typeof leaseDocuments,
  columns: C,
  ids: number[],
  direction: "asc" | "desc",
  database: Database,
): Promise<SelectResultFields<C>[]> {
  const by = direction === "asc" ? asc : desc;
  // Drizzle cannot infer a row type from a generic column set: the columns decide it.
  return database
    .select(columns)
    .from(table)
    .where(inArray(table.contactRequestId, ids))
    .orderBy(by(table.createdAt), by(table.id)) as Promise<SelectResultFields<C>[]>;
}

/** Everything about one request for its page: what the visitor sent, the offer, notes, history. */
export async function findContactRequest(id: number, database: Database = db()) {
  const [row] = await database
    .select({
      ...sentColumns,
      status: contactRequests.status,
      suspectedSpam: contactRequests.suspectedSpam,
      updatedAt: contactRequests.updatedAt,
      ownerId: contactRequests.ownerId,
      emailFailedAt: contactRequests.emailFailedAt,
      // Follow-ups (issue 40).
      nextActionOn: contactRequests.nextActionOn,
      firstResponseDueAt: contactRequests.firstResponseDueAt,
      firstAnsweredAt: contactRequests.firstAnsweredAt,
      quoteOpenedAt: quotes.openedAt,
      ...offerColumns,
      offerSlug: offers.slug,
      offerPrice: offers.price,
      offerActive: offers.isActive,
      quoteNumber: quotes.number,
      quoteSentAt: quotes.sentAt,
      quoteAcceptedAt: quotes.acceptedAt,
      quoteDeclinedAt: quotes.declinedAt,
    })
    .from(contactRequests)
    .leftJoin(offers, eq(offers.id, contactRequests.offerId))
    // The current quote: a sent quote replaces the previous ones (issue 29).
    .leftJoin(
      quotes,
      and(eq(quotes.contactRequestId, contactRequests.id), isNull(quotes.replacedAt)),
    )
    .where(eq(contactRequests.id, id))
    .limit(1);
  if (!row) return undefined;
  const [notes, history, ownerHistory] = await Promise.all([
    rowsOfRequests(contactNotes, noteColumns, [id], "desc", database),
    rowsOfRequests(contactStatusChanges, statusChangeColumns, [id], "desc", database),
    rowsOfRequests(contactOwnerChanges, ownerChangeColumns, [id], "desc", database),
  ]);
  return {
    ...withOffer(row),
    reference: contactReference(row.id, row.createdAt),
    notes,
    history,
    ownerHistory,
  };
}

export type ContactRequestDetail = NonNullable<Awaited<ReturnType<typeof findContactRequest>>>;
