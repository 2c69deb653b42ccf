import type { SendMailOptions } from "nodemailer";
import type { Database } from "~/platform/db.server";
import type { MailOutboxRow } from "~/platform/schema.server";
import { signedDocumentOf } from "~/platform/signed-documents.server";
import { siteConfig } from "~/platform/site.server";
import { buyerPdf, quoteById } from "~/features/quotes/quote-sending.server";
import { formatDateTime } from "~/lib/format";
import { type MailRenderer, ownerOrTeam, renderedMail } from "~/features/mail/mail-renderer.server";
import { messageWithRequest, outgoingReply } from "./conversation.server";

/** The quote a message joins, as the buyer has it: the signed bytes once accepted. */
async function quoteAttachment(quoteId: number, database: Database) {
  const quote = await quoteById(quoteId, database);
  if (!quote?.sentAt) return undefined;
  const signed = quote.acceptedAt ? await signedDocumentOf("quote", quote.id, database) : undefined;
  if (signed) return { filename: signed.fileName, content: signed.pdf };
  const { pdf, document } = await buyerPdf(quote);
  return { filename: document.fileName, content: pdf };
}

/**
 * The mail of a message written from the request's page (issue 40), as it leaves: to the request's
 * address, answering to its plus-address, threaded (Message-ID, In-Reply-To, References), in plain
 * text as typed, signed with the site's name and the request's reference.
 */
export async function replyMailMessage(
  row: MailOutboxRow,
  from: SendMailOptions["from"],
  database: Database,
): Promise<SendMailOptions | { failed: string }> {
  const reply =
    row.requestMessageId === null ? undefined : await outgoingReply(row.requestMessageId, database);
  if (!reply) return { failed: "Le message n'existe plus" };
  const { message } = reply;
  const site = siteConfig();
  const attachment = message.quoteId ? await quoteAttachment(message.quoteId, database) : undefined;
  if (message.quoteId && !attachment) return { failed: "Le devis joint n'existe plus" };
  const signature = [
    "-- ",
    `${site.name} · ${site.email} · ${site.phone}`,
    `Référence de votre demande : ${reply.reference}`,
  ].join("\n");
  return {
    from,
    to: reply.email,
    replyTo: reply.replyTo,
    subject: message.subject,
    text: `${message.body}\n\n${signature}\n`,
    messageId: message.messageId,
    ...(message.inReplyTo ? { inReplyTo: message.inReplyTo } : {}),
    ...(message.references.length > 0 ? { references: message.references } : {}),
    attachments: attachment ? [{ ...attachment, contentType: "application/pdf" }] : [],
  };
}

/** The buyer's text in the owner's mail: enough to know what it is about. */
const EXCERPT_MAX = 2_000;

/**
 * The mail to the request's owner (or to the team, NOTIFY_EMAIL, when nobody owns it) that the
 * buyer answered: who, when, the beginning of their text and the request's address.
 */
export async function repliedMailMessage(
  row: MailOutboxRow,
  settings: { from: SendMailOptions["from"]; to: string[]; baseUrl: string },
  messageDomain: string,
  database: Database,
): Promise<SendMailOptions | { failed: string }> {
  const found =
    row.requestMessageId === null
      ? undefined
      : await messageWithRequest(row.requestMessageId, database);
  if (!found) return { failed: "Le message n'existe plus" };
  const { message, reference } = found;
  const id = found.contactRequestId;
  const recipients = ownerOrTeam(found.owner, settings.to);
  if ("failed" in recipients) return recipients;
  const { to } = recipients;
  const excerpt =
    message.body.length > EXCERPT_MAX ? `${message.body.slice(0, EXCERPT_MAX)}…` : message.body;
  return {
    from: settings.from,
    to,
    subject: `Réponse du client : ${reference}`,
    text: [
      `${message.authorEmail} a répondu le ${formatDateTime(message.createdAt)} sur la demande ${reference} (${found.name}).`,
      "",
      `Objet : ${message.subject}`,
      "",
      excerpt,
      "",
      `Voir l'échange : ${settings.baseUrl.replace(/\/+$/, "")}/admin/contacts/${id}`,
      "",
    ].join("\n"),
    messageId: `<replied-${message.id}.mail-${row.id}@${messageDomain}>`,
    headers: { "Auto-Submitted": "auto-generated" },
  };
}

/** The outbox's renderer of a message to the buyer (app/mail-kinds.server.ts). */
export const prepareReplyMail: MailRenderer = async (row, { settings, database }) =>
  renderedMail(await replyMailMessage(row, settings.from, database), {
    requestMessageId: row.requestMessageId,
  });

/** The outbox's renderer of the owner's notice that the buyer answered (app/mail-kinds.server.ts). */
export const prepareRepliedMail: MailRenderer = async (
  row,
  { settings, messageDomain, database },
) =>
  renderedMail(await repliedMailMessage(row, settings, messageDomain, database), {
    requestMessageId: row.requestMessageId,
    kind: row.kind,
  });
