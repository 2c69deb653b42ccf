import { createHash } from "node:crypto";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { SignedDocumentKind } from "~/platform/signed-documents";
import { db, type Database } from "./db.server";
import { contactRequests, signedDocuments, type SignedDocument } from "./schema.server";

// What a person signed (issue 40, docs/decisions/039): written once, read many times, deleted
// only by its own retention (purge_signed_documents(), migration `*_signed_documents_custom`).

export const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export type NewSignedDocument = Omit<
  typeof signedDocuments.$inferInsert,
  "id" | "pdfSha256" | "partyEmail"
>;

/** Writes a signed document in the caller's transaction; its hash is taken from its bytes here. */
export async function recordSignedDocument(
  document: NewSignedDocument,
  database: Database,
): Promise<SignedDocument> {
  const [row] = await database
    .insert(signedDocuments)
    .values({
      ...document,
      pdfSha256: sha256Hex(document.pdf),
      partyEmail: document.party.email.toLowerCase(),
    })
    .returning();
  return row;
}

/** The signed document of a source (a quote's id), bytes included; undefined when none. */
export async function signedDocumentOf(
  kind: SignedDocumentKind,
  sourceId: number,
  database: Database = db(),
): Promise<SignedDocument | undefined> {
  const [row] = await database
    .select()
    .from(signedDocuments)
    .where(and(eq(signedDocuments.kind, kind), eq(signedDocuments.sourceId, sourceId)))
    .orderBy(desc(signedDocuments.id))
    .limit(1);
  return row;
}

/** A signed document by its id, bytes included (the admin's download). */
export async function signedDocumentById(id: number, database: Database = db()) {
  const [row] = await database.select().from(signedDocuments).where(eq(signedDocuments.id, id));
  return row;
}

/** Whether the request a signed document came from is still held (neither purged nor erased). */
export async function signedRequestHeld(
  contactRequestId: number | null,
  database: Database = db(),
): Promise<boolean> {
  if (contactRequestId === null) return false;
  const [row] = await database
    .select({ id: contactRequests.id })
    .from(contactRequests)
    .where(eq(contactRequests.id, contactRequestId));
  return row !== undefined;
}

/** What is said about a signed document without its bytes (pages, the export, the erasure). */
export const signedMetadataColumns = {
  id: signedDocuments.id,
  kind: signedDocuments.kind,
  reference: signedDocuments.reference,
  contactRequestId: signedDocuments.contactRequestId,
  signedAt: signedDocuments.signedAt,
  fileName: signedDocuments.fileName,
  pdfSha256: signedDocuments.pdfSha256,
  pdfBytes: sql<number>`octet_length(${signedDocuments.pdf})`.mapWith(Number),
  seller: signedDocuments.seller,
  terms: signedDocuments.terms,
  party: signedDocuments.party,
  acceptance: signedDocuments.acceptance,
};

/** The documents signed by (addressed to) one e-mail address, oldest first, without bytes. */
export async function signedDocumentsOfAddress(email: string, database: Database = db()) {
  return database
    .select(signedMetadataColumns)
    .from(signedDocuments)
    .where(eq(signedDocuments.partyEmail, email.toLowerCase()))
    .orderBy(asc(signedDocuments.signedAt), asc(signedDocuments.id));
}

export type SignedDocumentMetadata = Awaited<ReturnType<typeof signedDocumentsOfAddress>>[number];

/**
 * Deletes the signed documents past SIGNED_QUOTE_RETENTION_YEARS through purge_signed_documents(),
 * which runs as the tables' owner and reads the years from a function only the migrator writes:
 * the server's role cannot shorten it. Returns how many went.
 */
export async function purgeSignedDocuments(database: Database = db()): Promise<number> {
  const result = await database.execute<{ deleted: number }>(
    sql`select purge_signed_documents() as deleted`,
  );
  return Number(result.rows[0].deleted);
}
