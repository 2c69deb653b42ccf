import {
  FormDataParseError,
  MaxFilesExceededError,
  MaxFileSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  parseFormData,
  type FileUpload,
} from "@remix-run/form-data-parser";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { createSemaphore, QueueFullError } from "~/lib/semaphore";
import { db, type Database } from "~/platform/db.server";
import {
  contactRequests,
  leaseDocumentKinds,
  leaseDocuments,
  leaseFiles,
} from "~/platform/schema.server";
import {
  scanBytes,
  VIRUS_FOUND_MESSAGE,
  VIRUS_SCAN_UNAVAILABLE_MESSAGE,
  virusScanConfigured,
} from "~/platform/virus-scan.server";
import { quoteByToken } from "~/features/quotes/quote-sending.server";
import { checkDocument, type CheckedDocument } from "./document-checks.server";
import { LEASE_FILE_MAX_DOCUMENTS, leaseUploadLimits } from "./document-limits.server";
import { settleFileStatus } from "./lease-file.server";

// The buyer's documents for the LOA file (issue 41), posted from the quote's page: the multipart
// body streamed by React Router's ecosystem parser (@remix-run/form-data-parser) with its limits
// counted as the bytes arrive (per file, files, parts, whole), each file checked by its content
// and scanned by clamd when configured, then all stored in one transaction, or none.

export type UploadOutcome =
  | { kind: "stored"; count: number; status: string | undefined }
  | { kind: "refused"; status: 400 | 404 | 409 | 413 | 415 | 422 | 503; message: string };

/** Uploads checked at once per instance: each holds its files in memory (10 MB each at most). */
const uploads = createSemaphore({ concurrency: 4, maxQueued: 16 });

const MB = (bytes: number) =>
  new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 }).format(bytes / 1024 / 1024);

const fieldsSchema = z.object({
  intent: z.literal("documents"),
  kind: z.coerce.number().int().positive(),
});

type Received = { name: string; data: Buffer };

/** The form's files read within the limits, or the refusal the limit breached gives. */
async function readUpload(
  request: Request,
): Promise<{ form: FormData; files: Received[] } | Extract<UploadOutcome, { kind: "refused" }>> {
  const limits = leaseUploadLimits();
  const files: Received[] = [];
  try {
    const form = await parseFormData(
      request,
      {
        maxFiles: limits.files,
        maxFileSize: limits.fileBytes,
        maxParts: limits.files + 10,
        maxTotalSize: limits.totalBytes,
        maxHeaderSize: 8 * 1024,
      },
      async (upload: FileUpload) => {
        if (upload.fieldName !== "document") return null;
        const data = Buffer.from(await upload.arrayBuffer());
        // An empty file input still sends a part, named "", with no bytes.
        if (upload.name === "" && data.length === 0) return null;
        files.push({ name: upload.name, data });
        return null;
      },
    );
    return { form, files };
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      return {
        kind: "refused",
        status: 413,
        message: `Fichier trop volumineux : ${MB(limits.fileBytes)} Mo au plus par fichier.`,
      };
    }
    if (error instanceof MaxFilesExceededError || error instanceof MaxPartsExceededError) {
      return {
        kind: "refused",
        status: 413,
        message: `Trop de fichiers à la fois : ${limits.files} au plus par envoi.`,
      };
    }
    if (error instanceof FormDataParseError || request.signal.aborted) {
      return {
        kind: "refused",
        status: 400,
        message: "Envoi interrompu ou illisible : réessayez.",
      };
    }
    throw error;
  }
}

/** The checks and the scan of each file, in order; the first refusal stops. */
async function checkAll(
  files: Received[],
): Promise<
  | { ok: true; checked: (CheckedDocument & { data: Buffer })[] }
  | Extract<UploadOutcome, { kind: "refused" }>
> {
  const checked: (CheckedDocument & { data: Buffer })[] = [];
  for (const file of files) {
    const check = await checkDocument(file.name, file.data);
    if (!check.ok) return { kind: "refused", status: 415, message: check.reason };
    if (virusScanConfigured()) {
      const scan = await scanBytes(file.data);
      if (scan.kind === "infected") {
        return { kind: "refused", status: 422, message: VIRUS_FOUND_MESSAGE };
      }
      if (scan.kind === "unavailable") {
        return { kind: "refused", status: 503, message: VIRUS_SCAN_UNAVAILABLE_MESSAGE };
      }
    }
    checked.push({ ...check.document, data: file.data });
  }
  return { ok: true, checked };
}

/**
 * `Envoyer` of one document of the file, from the quote's link: the files read, checked and
 * scanned before anything is written, then stored with the request's status settled, or nothing.
 */
export async function receiveLeaseDocuments(
  request: Request,
  token: string,
  database: Database = db(),
): Promise<UploadOutcome> {
  const quote = await quoteByToken(token, database);
  if (!quote?.acceptedAt) {
    // The body is left unread, never cancelled: cancelling destroys the socket before this answer
    // goes out; the HTTP layer drops the rest once it is sent (http-server/request-body.ts).
    return { kind: "refused", status: 404, message: "Ce lien ne mène à aucun dossier." };
  }
  try {
    return await uploads.run(async () => {
      const read = await readUpload(request);
      if ("kind" in read) return read;
      const fields = fieldsSchema.safeParse(Object.fromEntries(read.form));
      if (!fields.success) {
        return { kind: "refused", status: 400, message: "Choisissez le document à envoyer." };
      }
      if (read.files.length === 0) {
        return { kind: "refused", status: 400, message: "Choisissez un fichier à envoyer." };
      }
      const checks = await checkAll(read.files);
      if (!("ok" in checks)) return checks;
      return store(quote.contactRequestId, fields.data.kind, checks.checked, database);
    });
  } catch (error) {
    if (error instanceof QueueFullError) {
      return {
        kind: "refused",
        status: 503,
        message: "Trop d'envois en cours : réessayez dans une minute.",
      };
    }
    throw error;
  }
}

async function store(
  contactRequestId: number,
  kindId: number,
  documents: (CheckedDocument & { data: Buffer })[],
  database: Database,
): Promise<UploadOutcome> {
  return database.transaction(async (tx) => {
    const [file] = await tx
      .select({ status: contactRequests.status, email: contactRequests.email })
      .from(leaseFiles)
      .innerJoin(contactRequests, eq(contactRequests.id, leaseFiles.contactRequestId))
      .where(eq(leaseFiles.contactRequestId, contactRequestId))
      .for("update");
    if (!file) return { kind: "refused", status: 404, message: "Ce devis n'a pas de dossier LOA." };
    if (file.status !== "file_incomplete" && file.status !== "file_complete") {
      return {
        kind: "refused",
        status: 409,
        message: "Le dossier a déjà été transmis au financeur : contactez-nous pour le compléter.",
      };
    }
    const [kind] = await tx
      .select({ id: leaseDocumentKinds.id, title: leaseDocumentKinds.title })
      .from(leaseDocumentKinds)
      .where(and(eq(leaseDocumentKinds.id, kindId)));
    if (!kind) return { kind: "refused", status: 400, message: "Ce document n'est plus demandé." };
    // A file is a handful of documents: past that, someone is filling our database, not a file.
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(leaseDocuments)
      .where(eq(leaseDocuments.contactRequestId, contactRequestId));
    if (count + documents.length > LEASE_FILE_MAX_DOCUMENTS) {
      return {
        kind: "refused",
        status: 409,
        message: `Ce dossier compte déjà ${count} pièces : contactez-nous pour le compléter.`,
      };
    }
    await tx.insert(leaseDocuments).values(
      documents.map((document) => ({
        contactRequestId,
        kindId: kind.id,
        kindTitle: kind.title,
        fileName: document.fileName,
        contentType: document.contentType,
        size: document.size,
        sha256: document.sha256,
        data: document.data,
      })),
    );
    const status = await settleFileStatus(tx, contactRequestId, { id: null, email: file.email });
    return { kind: "stored", count: documents.length, status };
  });
}
