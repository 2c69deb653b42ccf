import type { SendMailOptions } from "nodemailer";
import { renderQuoteOwnerMail, renderQuoteSentMail } from "./quote-mail";
import { companyLine } from "~/lib/siren";
import type { Database } from "~/platform/db.server";
import { MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import { type MailRenderer, ownerOrTeam, renderedMail } from "~/features/mail/mail-renderer.server";
import { buyerPdf, drawQuoteLink, quoteById, quotePagePath } from "./quote-sending.server";
import { requestWithOwner } from "~/platform/contact-columns.server";
import { contactRequests, type MailOutboxRow } from "~/platform/schema.server";
import { siteConfig } from "~/platform/site.server";

// The messages of a sent quote's mails (issue 29), rendered when they leave: the quote to the
// buyer (its PDF laid out again from the stored quote, its link drawn now), the answer and the
// reminder to the request's owner, or to the team when nobody owns it.

/** The outbox's renderer of the quote's kinds (app/mail-kinds.server.ts). */
export const prepareQuoteMail: MailRenderer = async (row, { settings, messageDomain, database }) =>
  renderedMail(await quoteMailMessage(row, settings, messageDomain, database), {
    quoteId: row.quoteId,
    kind: row.kind,
  });

type Settings = { baseUrl: string; to: string[]; from: SendMailOptions["from"] };

/** The message to send, or why the mail cannot be sent (marked failed). */
export async function quoteMailMessage(
  row: MailOutboxRow,
  settings: Settings,
  messageDomain: string,
  database: Database,
): Promise<SendMailOptions | { failed: string }> {
  const quote = row.quoteId === null ? undefined : await quoteById(row.quoteId, database);
  if (!quote?.sentAt) return { failed: "Le devis n'existe plus" };
  const site = siteConfig();
  const common = {
    from: settings.from,
    messageId: `<quote-${quote.id}.mail-${row.id}@${messageDomain}>`,
    headers: { "Auto-Submitted": "auto-generated" },
  };
  if (row.kind === MAIL_KINDS.quoteSent) {
    const link = await drawQuoteLink(quote.id, database);
    if (!link) return { failed: "Devis déjà répondu, remplacé ou expiré" };
    const { pdf, document } = await buyerPdf(link.quote);
    const mail = renderQuoteSentMail({
      number: quote.number,
      validUntil: quote.validUntil ?? quote.sentAt,
      url: `${settings.baseUrl.replace(/\/+$/, "")}${quotePagePath(link.token)}`,
      siteName: site.name,
      contact: { email: site.email, phone: site.phone },
    });
    return {
      ...common,
      to: link.quote.terms?.customer.email,
      replyTo: site.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: [{ filename: document.fileName, content: pdf, contentType: "application/pdf" }],
    };
  }
  const request = await requestWithOwner(
    quote.contactRequestId,
    { name: contactRequests.name },
    database,
  );
  if (!request) return { failed: "La demande n'existe plus" };
  const customer = quote.terms?.customer;
  const who = (customer && companyLine(customer.company, null)) ?? customer?.name ?? request.name;
  const answer =
    row.kind === MAIL_KINDS.quoteReminder
      ? ({ kind: "reminder", validUntil: quote.validUntil ?? quote.sentAt } as const)
      : row.kind === MAIL_KINDS.quoteOpened
        ? quote.openedAt
          ? ({
              kind: "opened",
              at: quote.openedAt,
              validUntil: quote.validUntil ?? quote.sentAt,
            } as const)
          : undefined
        : quote.acceptedAt && quote.acceptance
          ? ({
              kind: "accepted",
              at: quote.acceptedAt,
              name: quote.acceptance.name,
              role: quote.acceptance.role,
            } as const)
          : quote.declinedAt
            ? ({ kind: "declined", at: quote.declinedAt, reason: quote.declineReason } as const)
            : undefined;
  if (!answer) return { failed: "Le devis n'a pas de réponse" };
  const mail = renderQuoteOwnerMail(
    { requestId: quote.contactRequestId, number: quote.number, customer: who, answer },
    settings.baseUrl,
  );
  const recipients = ownerOrTeam(request.owner, settings.to);
  if ("failed" in recipients) return recipients;
  const { to } = recipients;
  return { ...common, to, subject: mail.subject, text: mail.text, html: mail.html };
}
