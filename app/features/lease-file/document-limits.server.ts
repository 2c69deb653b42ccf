import { env } from "~/platform/env.server";

// The limits of the LOA file's uploads (issue 41), shared by the HTTP layer (a declared length
// over the whole is refused before a byte is read) and the multipart parser (each file, as it
// streams).

/** The buyer's quote page, where the documents are posted (multipart only). */
export const LEASE_UPLOAD_PATH = /^\/devis\/[A-Za-z0-9_-]{20,100}$/;

/** Documents a file holds at most, received and refused together (a few per listed document). */
export const LEASE_FILE_MAX_DOCUMENTS = 40;

/** Files in one post: a document in a few parts (an identity card's two sides). */
export const LEASE_UPLOAD_MAX_FILES = 4;

export function leaseUploadLimits() {
  const fileBytes = env().LEASE_DOCUMENT_MAX_BYTES;
  return {
    fileBytes,
    files: LEASE_UPLOAD_MAX_FILES,
    // The files and the form's few fields.
    totalBytes: LEASE_UPLOAD_MAX_FILES * fileBytes + 64 * 1024,
  };
}
