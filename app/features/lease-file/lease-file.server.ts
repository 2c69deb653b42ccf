// The LOA file after the quote's acceptance (issue 41): the documents the financer asks for, what
// the buyer sent of each, what is missing, and the request's status that follows (`Dossier
// incomplet` until every listed document is received, then `Dossier complet`).
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { ContactStatus } from "~/lib/domain";
import { db, type Database } from "~/platform/db.server";
import {
  contactRequests,
  leaseDocumentKinds,
  leaseDocuments,
  leaseFiles,
  mailOutbox,
  type DeliveredItem,
} from "~/platform/schema.server";
import { MAIL_KINDS, notifyMailWorkers } from "~/features/mail/mail-outbox.server";
import { moveStatus } from "~/features/quotes/quote-sending.server";

export type LeaseDocumentKind = typeof leaseDocumentKinds.$inferSelect;

/** One document as the pages show it (never its bytes). */
export type LeaseDocumentSummary = {
  id: number;
  kindId: number | null;
  kindTitle: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  status: "received" | "refused";
  refusalReason: string | null;
  createdAt: Date;
};

export type DocumentState = "missing" | "received" | "refused";

/** A listed document with what the buyer sent of it, newest first. */
export type FileItem = {
  kind: Pick<LeaseDocumentKind, "id" | "title" | "purpose">;
  state: DocumentState;
  /** Why the latest was refused, as the salesperson wrote it. */
  refusalReason: string | null;
  documents: LeaseDocumentSummary[];
};

export type LeaseFile = {
  contactRequestId: number;
  status: ContactStatus;
  openedAt: Date;
  completeAt: Date | null;
  items: FileItem[];
  /** Documents of a kind the administrator has removed from the list since. */
  others: LeaseDocumentSummary[];
  missing: string[];
  complete: boolean;
  financer: {
    sentAt: Date | null;
    sentTo: string | null;
    answer: "approved" | "refused" | null;
    answeredOn: string | null;
    reference: string | null;
  };
  delivery: { items: DeliveredItem[] | null; enteredAt: Date | null; signedAt: Date | null };
};

const summaryColumns = {
  id: leaseDocuments.id,
  kindId: leaseDocuments.kindId,
  kindTitle: leaseDocuments.kindTitle,
  fileName: leaseDocuments.fileName,
  contentType: leaseDocuments.contentType,
  size: leaseDocuments.size,
  sha256: leaseDocuments.sha256,
  status: leaseDocuments.status,
  refusalReason: leaseDocuments.refusalReason,
  createdAt: leaseDocuments.createdAt,
};

/** The documents the financer asks for, in the administrator's order. */
export async function leaseDocumentKindsList(database: Database = db()) {
  return database
    .select()
    .from(leaseDocumentKinds)
    .orderBy(asc(leaseDocumentKinds.position), asc(leaseDocumentKinds.id));
}

/** A kind's state: its latest document's, or missing. */
function itemOf(
  kind: Pick<LeaseDocumentKind, "id" | "title" | "purpose">,
  documents: LeaseDocumentSummary[],
): FileItem {
  const latest = documents[0];
  return {
    kind,
    state: latest ? latest.status : "missing",
    refusalReason: latest?.status === "refused" ? latest.refusalReason : null,
    documents,
  };
}

/** A request's LOA file, or undefined when it has none (not an accepted LOA quote). */
export async function leaseFileOf(
  contactRequestId: number,
  database: Database = db(),
): Promise<LeaseFile | undefined> {
  const [file] = await database
    .select({ file: leaseFiles, status: contactRequests.status })
    .from(leaseFiles)
    .innerJoin(contactRequests, eq(contactRequests.id, leaseFiles.contactRequestId))
    .where(eq(leaseFiles.contactRequestId, contactRequestId));
  if (!file) return undefined;
  const [kinds, documents] = await Promise.all([
    leaseDocumentKindsList(database),
    database
      .select(summaryColumns)
      .from(leaseDocuments)
      .where(eq(leaseDocuments.contactRequestId, contactRequestId))
      .orderBy(desc(leaseDocuments.createdAt), desc(leaseDocuments.id)),
  ]);
  const items = kinds.map((kind) =>
    itemOf(
      kind,
      documents.filter((d) => d.kindId === kind.id),
    ),
  );
  const listed = new Set(kinds.map((kind) => kind.id));
  const missing = items.filter((item) => item.state !== "received").map((i) => i.kind.title);
  const { file: row } = file;
  return {
    contactRequestId,
    status: file.status,
    openedAt: row.openedAt,
    completeAt: row.completeAt,
    items,
    others: documents.filter((d) => d.kindId === null || !listed.has(d.kindId)),
    missing,
    complete: missing.length === 0,
    financer: {
      sentAt: row.financerSentAt,
      sentTo: row.financerSentTo,
      answer: row.financerAnswer,
      answeredOn: row.financerAnsweredOn,
      reference: row.financerReference,
    },
    delivery: {
      items: row.deliveredItems,
      enteredAt: row.deliveryEnteredAt,
      signedAt: row.deliverySignedAt,
    },
  };
}

/** Statuses in which the file's completeness moves the request's status. */
const COLLECTING: readonly ContactStatus[] = ["file_incomplete", "file_complete"];

/**
 * After a document is received or refused: the request becomes `Dossier complet` when every
 * listed document is received (its owner, or the team, told once per time it becomes complete),
 * and `Dossier incomplet` again when one is refused. Runs in the caller's transaction, with the
 * request locked.
 */
export async function settleFileStatus(
  tx: Database,
  contactRequestId: number,
  author: { id: number | null; email: string },
): Promise<ContactStatus | undefined> {
  const [request] = await tx
    .select({ status: contactRequests.status })
    .from(contactRequests)
    .where(eq(contactRequests.id, contactRequestId))
    .for("update");
  const file = await leaseFileOf(contactRequestId, tx);
  if (!request || !file || !COLLECTING.includes(request.status)) return request?.status;
  const to: ContactStatus = file.complete ? "file_complete" : "file_incomplete";
  if (to === request.status) return to;
  await moveStatus(tx, contactRequestId, request.status, to, author);
  await tx
    .update(leaseFiles)
    .set({ completeAt: file.complete ? sql`now()` : null })
    .where(eq(leaseFiles.contactRequestId, contactRequestId));
  if (file.complete) {
    await tx.insert(mailOutbox).values({ contactRequestId, kind: MAIL_KINDS.leaseFileComplete });
    await notifyMailWorkers(tx);
  }
  return to;
}

/** A document's bytes for the team's download, with what the response needs. */
export async function leaseDocumentFile(
  contactRequestId: number,
  documentId: number,
  database: Database = db(),
) {
  const [document] = await database
    .select({
      fileName: leaseDocuments.fileName,
      contentType: leaseDocuments.contentType,
      data: leaseDocuments.data,
    })
    .from(leaseDocuments)
    .where(
      and(eq(leaseDocuments.id, documentId), eq(leaseDocuments.contactRequestId, contactRequestId)),
    );
  return document;
}

/**
 * `Refuser` of a received document, with the reason the buyer will read: the file is incomplete
 * again. Returns what happened.
 */
export async function refuseLeaseDocument(
  contactRequestId: number,
  documentId: number,
  reason: string,
  actor: { id: number; email: string },
  database: Database = db(),
): Promise<"refused" | "missing" | "already"> {
  return database.transaction(async (tx) => {
    const [refused] = await tx
      .update(leaseDocuments)
      .set({
        status: "refused",
        refusalReason: reason,
        reviewedById: actor.id,
        reviewedAt: sql`now()`,
      })
      .where(
        and(
          eq(leaseDocuments.id, documentId),
          eq(leaseDocuments.contactRequestId, contactRequestId),
          eq(leaseDocuments.status, "received"),
        ),
      )
      .returning({ id: leaseDocuments.id });
    if (!refused) {
      const [exists] = await tx
        .select({ id: leaseDocuments.id })
        .from(leaseDocuments)
        .where(
          and(
            eq(leaseDocuments.id, documentId),
            eq(leaseDocuments.contactRequestId, contactRequestId),
          ),
        );
      return exists ? "already" : "missing";
    }
    await settleFileStatus(tx, contactRequestId, actor);
    return "refused";
  });
}

/** What the buyer's page shows of the file: the list, the states, no request id, no bytes. */
export type BuyerLeaseFile = {
  status: ContactStatus;
  items: {
    kindId: number;
    title: string;
    purpose: string;
    state: DocumentState;
    refusalReason: string | null;
    documents: { fileName: string; size: number; createdAt: Date; status: DocumentState }[];
  }[];
  missing: string[];
  delivery: LeaseFile["delivery"];
};

/** The file of the quote a link names, as its buyer sees it; undefined when it has none. */
export async function buyerLeaseFile(
  contactRequestId: number,
  database: Database = db(),
): Promise<BuyerLeaseFile | undefined> {
  const file = await leaseFileOf(contactRequestId, database);
  if (!file) return undefined;
  return {
    status: file.status,
    items: file.items.map((item) => ({
      kindId: item.kind.id,
      title: item.kind.title,
      purpose: item.kind.purpose,
      state: item.state,
      refusalReason: item.refusalReason,
      documents: item.documents.map((d) => ({
        fileName: d.fileName,
        size: d.size,
        createdAt: d.createdAt,
        status: d.status,
      })),
    })),
    missing: file.missing,
    delivery: file.delivery,
  };
}
