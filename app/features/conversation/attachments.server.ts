import { createHash } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import type { Attachment } from "postal-mime";
import { safeFileName } from "~/lib/attachments";
import { formatFileSize } from "~/lib/attachments";
import { db, type Database } from "~/platform/db.server";
import { requestMessageAttachments } from "~/platform/schema.server";

// The files an incoming message carries (issue 40): kept within limits (size, count, a type read
// from the bytes, not from the sender's word), stored with their message, served to the team only
// as downloads. What is not kept is said at the end of the message's text.

/** At most this many files kept per message. */
export const ATTACHMENTS_PER_MESSAGE = 10;

/** The types kept, as file-type reads them from the bytes. */
const BINARY_TYPES = new Set([
  "application/pdf",
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.spreadsheet",
]);

/** Text has no signature: the sender's word for it, checked against the bytes (UTF-8, no NUL). */
const TEXT_TYPES = [
  { type: "text/csv", extension: /\.csv$/i },
  { type: "text/plain", extension: /\.(txt|text|log)$/i },
] as const;

export type KeptAttachment = {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  data: Buffer;
};

export type RefusedAttachment = { filename: string; reason: string };

const bytesOf = (content: Attachment["content"], encoding: Attachment["encoding"]): Buffer =>
  typeof content === "string"
    ? Buffer.from(content, encoding === "base64" ? "base64" : "utf8")
    : Buffer.from(content instanceof ArrayBuffer ? new Uint8Array(content) : content);

function isUtf8Text(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The type of the bytes, when it is one kept; undefined otherwise. */
async function keptTypeOf(bytes: Buffer, declared: string, name: string) {
  const found = await fileTypeFromBuffer(bytes);
  if (found) return BINARY_TYPES.has(found.mime) ? found.mime : undefined;
  const text = TEXT_TYPES.find(({ type, extension }) => declared === type || extension.test(name));
  return text && isUtf8Text(bytes) ? `${text.type}; charset=utf-8` : undefined;
}

/** An image a mail client put in the HTML (a signature's logo): part of the layout, not a file. */
const isInlineImage = (attachment: Attachment) =>
  Boolean(attachment.contentId) &&
  attachment.mimeType.startsWith("image/") &&
  (attachment.disposition === "inline" || (!attachment.disposition && attachment.related));

/** Sorts a message's attachments into those kept and those refused, with the reason. */
export async function sortAttachments(
  attachments: Attachment[],
  maxBytes: number,
): Promise<{ kept: KeptAttachment[]; refused: RefusedAttachment[] }> {
  const kept: KeptAttachment[] = [];
  const refused: RefusedAttachment[] = [];
  for (const attachment of attachments) {
    if (isInlineImage(attachment)) continue;
    const filename = safeFileName(attachment.filename, "piece-jointe");
    const data = bytesOf(attachment.content, attachment.encoding);
    const refuse = (reason: string) => refused.push({ filename, reason });
    if (data.length === 0) {
      refuse("fichier vide");
    } else if (data.length > maxBytes) {
      refuse(
        `trop volumineuse : ${formatFileSize(data.length)}, ${formatFileSize(maxBytes)} au plus`,
      );
    } else {
      const contentType = await keptTypeOf(data, attachment.mimeType, filename);
      if (!contentType) refuse("type non accepté");
      else if (kept.length >= ATTACHMENTS_PER_MESSAGE) {
        refuse(`au-delà de ${ATTACHMENTS_PER_MESSAGE} pièces jointes`);
      } else {
        const sha256 = createHash("sha256").update(data).digest("hex");
        kept.push({ filename, contentType, size: data.length, sha256, data });
      }
    }
  }
  return { kept, refused };
}

/** The lines said at the end of the message's text, one per file not kept. */
export function refusalLines(refused: RefusedAttachment[]): string {
  return refused
    .map(({ filename, reason }) => `Pièce jointe non conservée : ${filename} (${reason})`)
    .join("\n");
}

/** What the pages show of the files of some messages (never their bytes), by message. */
export async function attachmentsOfMessages(messageIds: number[], database: Database = db()) {
  if (messageIds.length === 0) return new Map<number, AttachmentSummary[]>();
  const rows = await database
    .select({
      id: requestMessageAttachments.id,
      messageId: requestMessageAttachments.messageId,
      filename: requestMessageAttachments.filename,
      contentType: requestMessageAttachments.contentType,
      size: requestMessageAttachments.size,
      sha256: requestMessageAttachments.sha256,
    })
    .from(requestMessageAttachments)
    .where(inArray(requestMessageAttachments.messageId, messageIds))
    .orderBy(asc(requestMessageAttachments.id));
  const byMessage = new Map<number, AttachmentSummary[]>();
  for (const row of rows) {
    byMessage.set(row.messageId, [...(byMessage.get(row.messageId) ?? []), row]);
  }
  return byMessage;
}

export type AttachmentSummary = {
  id: number;
  messageId: number;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
};

/** Messages as the pages show them: each with what it carried (its files, never their bytes). */
export async function withAttachments<T extends { id: number }>(
  messages: T[],
  database: Database = db(),
) {
  const files = await attachmentsOfMessages(
    messages.map((message) => message.id),
    database,
  );
  return messages.map((message) => ({ ...message, attachments: files.get(message.id) ?? [] }));
}

/** One file with its bytes, when it belongs to that message (named as the downloads name it). */
export async function attachmentFile(
  messageId: number,
  attachmentId: number,
  database: Database = db(),
) {
  const [row] = await database
    .select({
      fileName: requestMessageAttachments.filename,
      contentType: requestMessageAttachments.contentType,
      data: requestMessageAttachments.data,
    })
    .from(requestMessageAttachments)
    .where(
      and(
        eq(requestMessageAttachments.id, attachmentId),
        eq(requestMessageAttachments.messageId, messageId),
      ),
    );
  return row;
}
