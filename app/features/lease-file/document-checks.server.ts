import { createHash } from "node:crypto";
import { createInflate } from "node:zlib";
import { fileTypeFromBuffer } from "file-type";

// What a document of the LOA file must be (issue 41), decided from its bytes, never from its name
// or the browser's word: a PDF, a JPEG or a PNG, whole, with nothing a browser or a reader would
// run. A bank opens these files: a refusal says why, in French.

export const DOCUMENT_TYPES = {
  "application/pdf": "pdf",
  "image/jpeg": "jpg",
  "image/png": "png",
} as const;
export type DocumentType = keyof typeof DOCUMENT_TYPES;

export type CheckedDocument = {
  contentType: DocumentType;
  fileName: string;
  size: number;
  sha256: string;
};

export type DocumentCheck = { ok: true; document: CheckedDocument } | { ok: false; reason: string };

/**
 * What a PDF's compressed streams may inflate to, in all: a scan of blank pages compresses a
 * thousand to one, so no ratio; a 10 MB document that unfolds into more than this is a bomb.
 */
const INFLATED_MAX_BYTES = 256 * 1024 * 1024;

/** Markup a browser would render if the file were ever opened as a page (polyglot files). */
const MARKUP =
  /<\s*(?:!doctype\s+html|html|head|body|script|iframe|object|embed|svg|meta|link|form)[\s>/]/i;

/** A name safe to show and to offer as a download: no path, no control character, its real type. */
export function documentFileName(name: string, type: DocumentType): string {
  const base =
    (name.split(/[\\/]/).pop() ?? "")
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f"<>|:*?]+/g, " ")
      .replace(/\.[A-Za-z0-9]{1,5}$/, "")
      .trim()
      .slice(0, 100) || "document";
  return `${base}.${DOCUMENT_TYPES[type]}`;
}

/** How many bytes `compressed` inflates to, counted as it streams and stopped past `limit`. */
function inflatedSize(compressed: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = createInflate();
    let total = 0;
    inflate.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        inflate.destroy();
        resolve(total);
      }
    });
    // A damaged stream is the reader's concern, not a bomb: what it gave counts.
    inflate.on("error", () => resolve(total));
    inflate.on("end", () => resolve(total));
    inflate.end(compressed);
  });
}

/**
 * Whether the FlateDecode streams of a PDF inflate, all together, within `budget` bytes: the
 * output is counted and dropped, never held (a compression bomb costs CPU time, not memory).
 */
async function pdfInflatesWithin(bytes: Buffer, budget: number): Promise<boolean> {
  const text = bytes.toString("latin1");
  const streams = /\/FlateDecode[\s\S]{0,512}?stream\r?\n/g;
  let left = budget;
  for (let match = streams.exec(text); match; match = streams.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf("endstream", start);
    if (end < 0) break;
    left -= await inflatedSize(bytes.subarray(start, end), left);
    if (left < 0) return false;
    streams.lastIndex = end;
  }
  return true;
}

/** The checks of one uploaded file; `ok` with its type, safe name and SHA-256, or why not. */
export async function checkDocument(name: string, data: Buffer): Promise<DocumentCheck> {
  if (data.length === 0) return { ok: false, reason: `${name || "Le fichier"} est vide.` };
  const detected = await fileTypeFromBuffer(data);
  const type = detected?.mime;
  if (!type || !(type in DOCUMENT_TYPES)) {
    return {
      ok: false,
      reason: `${name || "Ce fichier"} n'est ni un PDF, ni une image JPEG ou PNG (son contenu ne correspond pas à son nom).`,
    };
  }
  const contentType = type as DocumentType;
  if (contentType === "application/pdf") {
    const head = data.subarray(0, 5).toString("latin1");
    const tail = data.subarray(Math.max(0, data.length - 2048)).toString("latin1");
    if (head !== "%PDF-" || !tail.includes("%%EOF")) {
      return { ok: false, reason: `${name} n'est pas un PDF complet : envoyez-le à nouveau.` };
    }
    if (MARKUP.test(data.toString("latin1"))) {
      return {
        ok: false,
        reason: `${name} contient du code de page web : enregistrez-le à nouveau en PDF depuis votre logiciel.`,
      };
    }
    if (!(await pdfInflatesWithin(data, INFLATED_MAX_BYTES))) {
      return {
        ok: false,
        reason: `${name} se décompresse en un volume démesuré : ce PDF est refusé.`,
      };
    }
  }
  return {
    ok: true,
    document: {
      contentType,
      fileName: documentFileName(name, contentType),
      size: data.length,
      sha256: createHash("sha256").update(data).digest("hex"),
    },
  };
}
