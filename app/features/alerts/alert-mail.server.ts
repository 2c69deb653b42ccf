import { renderAlertAvailableMail, renderAlertConfirmationMail } from "./alert-mail";
import { alertConfirmUrl, alertUnsubscribeUrl, listUnsubscribeHeaders } from "./alerts";
import { deliveryLabel } from "~/lib/offer-fields";
import { monthlyLabel } from "~/lib/money";
import { drawAlertMail } from "./alerts.server";
import { MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import type { MailRenderer } from "~/features/mail/mail-renderer.server";
import type { MailSettings } from "~/features/mail/mail-settings.server";
import type { RenderedMail } from "~/features/mail/mail-text";
import { siteConfig } from "~/platform/site.server";

/**
 * An alert's or a saved search's message: from the site to the address alone (no display name),
 * automatic, with the one-click unsubscribe headers (RFC 8058).
 */
export function subscriptionMessage(
  mail: RenderedMail,
  to: { settings: MailSettings; email: string; messageId: string; unsubscribeUrl: string },
) {
  return {
    from: to.settings.from,
    to: to.email,
    ...mail,
    messageId: to.messageId,
    headers: { "Auto-Submitted": "auto-generated", ...listUnsubscribeHeaders(to.unsubscribeUrl) },
  };
}

/**
 * An alert's mail as it leaves (a new link token drawn now), or why it is not sent: the alert was
 * confirmed, renewed, unsubscribed or purged meanwhile. To the address alone (no display name),
 * with the one-click unsubscribe headers (RFC 8058) and nothing the visitor typed.
 */
export const prepareAlertMail: MailRenderer = async (
  row,
  { settings, messageDomain, database },
) => {
  const alert =
    row.alertId !== null ? await drawAlertMail(row.alertId, row.kind, database) : undefined;
  if (!alert) return { failed: "Alerte confirmée, remplacée ou supprimée entre-temps" };
  const unsubscribeUrl = alertUnsubscribeUrl(settings.baseUrl, alert.token);
  const mail =
    row.kind === MAIL_KINDS.alertConfirmation
      ? renderAlertConfirmationMail({
          offer: alert.offer,
          siteName: siteConfig().name,
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
    message: subscriptionMessage(mail, {
      settings,
      email: alert.email,
      messageId: `<alert-${row.alertId}.mail-${row.id}@${messageDomain}>`,
      unsubscribeUrl,
    }),
    logged: { alertId: row.alertId, kind: row.kind, attempts: row.attempts },
  };
};
