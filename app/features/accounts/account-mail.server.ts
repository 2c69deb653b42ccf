import { resetLinkUrl } from "./password-reset";
import { renderPasswordResetMail } from "./password-reset-mail";
import { renderSecondFactorAlertMail } from "./account-alert-mail";
import type { MailRenderer } from "~/features/mail/mail-renderer.server";
import { siteConfig } from "~/platform/site.server";
import { drawResetLink } from "./password-reset.server";
import { accountEmail } from "./users.server";

// The mails to an account about its own security, rendered when they leave. The outbox's
// renderers of these two kinds (app/mail-kinds.server.ts).

/**
 * A password-reset link to an account (issue 20): sent while the link still works, with a token
 * drawn now (only its hash is stored: issue 28).
 */
export const preparePasswordResetMail: MailRenderer = async (
  row,
  { settings, messageDomain, database },
) => {
  const link =
    row.passwordResetId !== null ? await drawResetLink(row.passwordResetId, database) : undefined;
  if (!link) return { failed: "Lien de réinitialisation expiré, utilisé ou remplacé" };
  const mail = renderPasswordResetMail({
    url: resetLinkUrl(settings.baseUrl, link.token),
    expiresAt: link.expiresAt,
    siteName: siteConfig().name,
  });
  return {
    message: {
      from: settings.from,
      to: link.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<password-reset-${row.passwordResetId}.mail-${row.id}@${messageDomain}>`,
      headers: { "Auto-Submitted": "auto-generated" },
    },
    logged: { passwordResetId: row.passwordResetId, attempts: row.attempts },
  };
};

/** The warning to an account whose password is used with wrong codes (issue 28). */
export const prepareSecondFactorAlertMail: MailRenderer = async (
  row,
  { settings, messageDomain, database },
) => {
  const email = row.userId !== null ? await accountEmail(row.userId, database) : undefined;
  if (!email) return { failed: "Le compte n'existe plus" };
  const mail = renderSecondFactorAlertMail({
    baseUrl: settings.baseUrl,
    siteName: siteConfig().name,
    at: row.createdAt,
  });
  return {
    message: {
      from: settings.from,
      to: email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<account-alert-${row.userId}.mail-${row.id}@${messageDomain}>`,
      headers: { "Auto-Submitted": "auto-generated" },
    },
    logged: { userId: row.userId, attempts: row.attempts },
  };
};
