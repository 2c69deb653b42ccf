import { headerText } from "~/features/mail/mail-text";
import {
  acknowledgementData,
  renderContactAcknowledgement,
  renderContactNotification,
} from "./contact-mail";
import { contactReference } from "~/platform/contact-reference";
import type { MailContext, MailRenderer, RenderedMail } from "~/features/mail/mail-renderer.server";
import type { MailOutboxRow } from "~/platform/schema.server";
import { siteConfig } from "~/platform/site.server";
import { contactMailData } from "./contacts.server";
import { drawRequestLink, requestLinkPath } from "~/features/buyer-request/request-link.server";

// A contact request's mails, rendered when they leave from the request as it is then: the sales
// team's notification, and the visitor's acknowledgement (issue 22). The outbox's renderers of
// these two kinds (app/mail-kinds.server.ts).

async function prepareContactMail(
  row: MailOutboxRow,
  { settings, messageDomain, database }: MailContext,
  acknowledgement: boolean,
): Promise<RenderedMail> {
  if (row.contactRequestId === null) return { failed: `Type de mail inconnu : ${row.kind}` };
  const data = await contactMailData(row.contactRequestId, database);
  // Deleting a request deletes its mails: this only happens if it went during the claim.
  if (!data) return { failed: "La demande n'existe plus" };
  const site = siteConfig();
  // `Ma demande` (issue 42): a new link each time the acknowledgement leaves (only its hash kept).
  const token = acknowledgement ? await drawRequestLink(data.id, database) : undefined;
  const followUrl = token && `${settings.baseUrl.replace(/\/+$/, "")}${requestLinkPath(token)}`;
  const mail = acknowledgement
    ? renderContactAcknowledgement(
        acknowledgementData(data),
        contactReference(data.id, data.createdAt),
        { ...site, followUrl },
      )
    : renderContactNotification(data, settings.baseUrl, settings.pricing);
  return {
    message: {
      from: settings.from,
      ...(acknowledgement
        ? // The address alone: a display name would be the visitor's text in our mail too.
          { to: data.email, replyTo: site.email }
        : {
            to: settings.to,
            replyTo: { name: headerText(data.name), address: data.email },
          }),
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      // The same Message-ID on every attempt: a duplicate (see docs/mail.md) is recognisable.
      messageId: `<contact-${data.id}.mail-${row.id}@${messageDomain}>`,
      headers: { "Auto-Submitted": "auto-generated" },
    },
    logged: { contactId: data.id, attempts: row.attempts },
    requestedAt: data.createdAt,
  };
}

/** The sales team's notification of a contact request (NOTIFY_EMAIL). */
export const prepareContactNotification: MailRenderer = (row, context) =>
  prepareContactMail(row, context, false);

/** The visitor's acknowledgement: the request's reference and a summary (issue 22). */
export const prepareContactAcknowledgement: MailRenderer = (row, context) =>
  prepareContactMail(row, context, true);
