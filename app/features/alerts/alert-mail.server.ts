import type { SendMailOptions } from "nodemailer";
import { renderAlertAvailableMail, renderAlertConfirmationMail } from "~/lib/alert-mail";
import { alertConfirmUrl, alertUnsubscribeUrl, listUnsubscribeHeaders } from "~/lib/alerts";
import { deliveryLabel } from "~/lib/delivery";
import { monthlyLabel, type Pricing } from "~/lib/money";
import { drawAlertMail } from "./alerts.server";
import type { Database } from "~/platform/db.server";
import { MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import type { MailOutboxRow } from "~/platform/schema.server";

/** The mail kinds of availability alerts (issue 30), sent by the mail worker through this module. */
export const ALERT_MAIL_KINDS: readonly string[] = [
  MAIL_KINDS.alertConfirmation,
  MAIL_KINDS.alertAvailable,
];

/**
 * An alert's mail as it leaves (a new link token drawn now), or why it is not sent: the alert was
 * confirmed, renewed, unsubscribed or purged meanwhile. To the address alone (no display name),
 * with the one-click unsubscribe headers (RFC 8058) and nothing the visitor typed.
 */
export async function prepareAlertMail(
  row: MailOutboxRow,
  settings: { baseUrl: string; pricing: Pricing; siteName: string; messageDomain: string },
  database: Database,
): Promise<{ message: SendMailOptions; subject: string } | { skipped: string }> {
  const alert =
    row.alertId !== null ? await drawAlertMail(row.alertId, row.kind, database) : undefined;
  if (!alert) return { skipped: "Alerte confirmée, remplacée ou supprimée entre-temps" };
  const unsubscribeUrl = alertUnsubscribeUrl(settings.baseUrl, alert.token);
  const mail =
    row.kind === MAIL_KINDS.alertConfirmation
      ? renderAlertConfirmationMail({
          offer: alert.offer,
          siteName: settings.siteName,
          confirmUrl: alertConfirmUrl(settings.baseUrl, alert.token),
          unsubscribeUrl,
        })
      : renderAlertAvailableMail({
          offer: {
            ...alert.offer,
            price: monthlyLabel(alert.offer.price, settings.pricing),
            delivery: deliveryLabel(alert.offer),
          },
          offerUrl: `${settings.baseUrl.replace(/\/+$/, "")}/offers/${alert.offer.slug}`,
          unsubscribeUrl,
        });
  return {
    subject: mail.subject,
    message: {
      to: alert.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<alert-${row.alertId}.mail-${row.id}@${settings.messageDomain}>`,
      headers: { "Auto-Submitted": "auto-generated", ...listUnsubscribeHeaders(unsubscribeUrl) },
    },
  };
}
