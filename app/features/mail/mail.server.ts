import { setTimeout as delay } from "node:timers/promises";
import nodemailer, { type SendMailOptions } from "nodemailer";
import {
  acknowledgementData,
  headerText,
  renderContactAcknowledgement,
  renderContactNotification,
} from "~/lib/contact-mail";
import { contactReference } from "~/lib/contact-reference";
import { retryDelaySeconds } from "~/lib/outbox-backoff";
import { resetLinkUrl } from "~/lib/password-reset";
import { renderPasswordResetMail } from "~/lib/password-reset-mail";
import { renderSecondFactorAlertMail } from "~/lib/account-alert-mail";
import { contactMailData } from "~/features/desk/contacts.server";
import type { DatabaseHandle } from "~/platform/db.server";
import { log } from "~/platform/log.server";
import {
  giveUpStaleMails,
  MAIL_KINDS,
  mailQueue,
  markMailAttemptFailed,
  markMailFailed,
  markMailSent,
  releaseMailClaim,
} from "./mail-outbox.server";
import { startDurableQueueWorker, type QueueWorker } from "~/platform/durable-queue.server";
import { drawResetLink } from "~/features/accounts/password-reset.server";
import { ALERT_MAIL_KINDS, prepareAlertMail } from "~/features/alerts/alert-mail.server";
import { accountEmail } from "~/features/accounts/users.server";
import { QUOTE_MAIL_KINDS, quoteMailMessage } from "~/features/quotes/quote-mail.server";
import {
  LEASE_FILE_MAIL_KINDS,
  leaseFileMailMessage,
} from "~/features/lease-file/lease-file-mail.server";
import {
  FOLLOW_UP_MAIL_KINDS,
  followUpMailMessage,
} from "~/features/follow-ups/follow-up-mail.server";
import { repliedMailMessage, replyMailMessage } from "~/features/conversation/reply-mail.server";
import type { MailOutboxRow } from "~/platform/schema.server";
import { siteConfig } from "~/platform/site.server";
import {
  describeError,
  isPermanentSmtpError,
  type MailSettings,
  messageDomainOf,
  verifySmtp,
} from "./mail-settings.server";

export type MailWorkerOptions = {
  /** PostgreSQL URL to LISTEN on, so that another instance's request wakes this worker too. */
  listenUrl?: string;
  /**
   * Mails claimed and sent at once, each on its own SMTP connection. Only what is being sent is
   * claimed, so that no claim waits behind a slow relay until its lease runs out.
   */
  batchSize?: number;
  /** How long a claim holds a row: longer than the SMTP timeouts below. */
  leaseSeconds?: number;
  /** Longest sleep between two looks at the outbox when nothing wakes the worker. */
  pollMs?: number;
};

export type MailWorker = QueueWorker;

class MailLeftError extends Error {
  constructor(cause: unknown) {
    super("mail sent, not recorded", { cause });
  }
}

/**
 * Sends the outbox's due mails, in every server instance: claim a batch (a short transaction of
 * its own), then for each mail render it from the request as it is now, speak SMTP outside any
 * transaction (PGlite has one connection: a transaction open during SMTP would stop every page),
 * and record the outcome. Wakes on NOTIFY (enqueues of this instance, and of the others on
 * PostgreSQL) and polls otherwise.
 */
export function startMailWorker(
  handle: DatabaseHandle,
  settings: MailSettings,
  options: MailWorkerOptions = {},
): MailWorker {
  const database = handle.db;
  // Until stop: a sent mail's record is retried only while the worker runs.
  let running = true;
  const batchSize = options.batchSize ?? 4;
  const leaseSeconds = options.leaseSeconds ?? 300;
  const pollMs = options.pollMs ?? 10_000;
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
    // nodemailer signs each message (rsa-sha256, relaxed/relaxed) before it goes out.
    ...(settings.dkim ? { dkim: settings.dkim } : {}),
  });
  const messageDomain = messageDomainOf(settings.baseUrl);

  /**
   * A password-reset link to an account (issue 20): sent while the link still works, with a token
   * drawn now (only its hash is stored: issue 28).
   */
  async function sendPasswordReset(row: MailOutboxRow): Promise<void> {
    const link =
      row.passwordResetId !== null ? await drawResetLink(row.passwordResetId, database) : undefined;
    if (!link) {
      await markMailFailed(
        row.id,
        "Lien de réinitialisation expiré, utilisé ou remplacé",
        database,
      );
      return;
    }
    const site = siteConfig();
    const mail = renderPasswordResetMail({
      url: resetLinkUrl(settings.baseUrl, link.token),
      expiresAt: link.expiresAt,
      siteName: site.name,
    });
    const sent = await deliver(row, {
      from: settings.from,
      to: link.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<password-reset-${row.passwordResetId}.mail-${row.id}@${messageDomain}>`,
      headers: { "Auto-Submitted": "auto-generated" },
    });
    if (sent) {
      log.info("mail sent", {
        mailId: row.id,
        passwordResetId: row.passwordResetId,
        attempts: row.attempts,
      });
    }
  }

  /** The warning to an account whose password is used with wrong codes (issue 28). */
  async function sendSecondFactorAlert(row: MailOutboxRow): Promise<void> {
    const email = row.userId !== null ? await accountEmail(row.userId, database) : undefined;
    if (!email) {
      await markMailFailed(row.id, "Le compte n'existe plus", database);
      return;
    }
    const site = siteConfig();
    const mail = renderSecondFactorAlertMail({
      baseUrl: settings.baseUrl,
      siteName: site.name,
      at: row.createdAt,
    });
    const sent = await deliver(row, {
      from: settings.from,
      to: email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<account-alert-${row.userId}.mail-${row.id}@${messageDomain}>`,
      headers: { "Auto-Submitted": "auto-generated" },
    });
    if (sent) log.info("mail sent", { mailId: row.id, userId: row.userId, attempts: row.attempts });
  }

  /** Hands one mail to the SMTP server and records the outcome; true when it was accepted. */
  async function deliver(row: MailOutboxRow, message: SendMailOptions): Promise<boolean> {
    try {
      await transport.sendMail(message);
    } catch (error) {
      if (isPermanentSmtpError(error)) {
        // Final: failed at once with the server's reason, shown on the dashboard ('Réessayer').
        await markMailFailed(row.id, describeError(error), database);
        log.error("mail refused by the SMTP server; marked failed", {
          mailId: row.id,
          error: describeError(error),
        });
        return false;
      }
      const delaySeconds = retryDelaySeconds(row.attempts, settings.retryMaxSeconds);
      await markMailAttemptFailed(row.id, describeError(error), delaySeconds, database);
      log.warn("mail not sent; will retry", {
        mailId: row.id,
        attempts: row.attempts,
        retryInSeconds: delaySeconds,
        error: describeError(error),
      });
      return false;
    }
    try {
      await recordSent(row.id);
    } catch (error) {
      throw new MailLeftError(error);
    }
    return true;
  }

  /**
   * One claimed mail. If the database fails before the mail left (reading its request, recording
   * a failed attempt), the claim is given back once the database answers, or the mail would wait
   * out its whole lease (5 minutes) after a restart. A mail that left is never given back: it
   * would be sent twice.
   */
  async function send(row: MailOutboxRow): Promise<void> {
    try {
      await prepareAndSend(row);
    } catch (error) {
      if (!(error instanceof MailLeftError)) {
        await retryWrite("mail not sent, database unavailable; giving its claim back", row.id, () =>
          releaseMailClaim(row.id, database),
        ).catch(() => {});
      }
      throw error;
    }
  }

  /** An availability alert's confirmation or its one mail (issue 30, alert-mail.server.ts). */
  async function sendAlertMail(row: MailOutboxRow): Promise<void> {
    const site = siteConfig();
    const prepared = await prepareAlertMail(
      row,
      { baseUrl: settings.baseUrl, pricing: settings.pricing, siteName: site.name, messageDomain },
      database,
    );
    if ("skipped" in prepared) {
      await markMailFailed(row.id, prepared.skipped, database);
      return;
    }
    if (await deliver(row, { from: settings.from, ...prepared.message })) {
      log.info("mail sent", {
        mailId: row.id,
        alertId: row.alertId,
        kind: row.kind,
        attempts: row.attempts,
      });
    }
  }

  /**
   * A mail its feature prepares when it leaves (a quote's, issue 29; a message from the request's
   * page, issue 40): sent, or marked failed with the reason it cannot leave.
   */
  async function sendPrepared(
    row: MailOutboxRow,
    prepared: SendMailOptions | { failed: string },
    logged: Record<string, unknown>,
  ): Promise<void> {
    if ("failed" in prepared) {
      await markMailFailed(row.id, prepared.failed, database);
      return;
    }
    if (await deliver(row, prepared)) log.info("mail sent", { mailId: row.id, ...logged });
  }

  async function prepareAndSend(row: MailOutboxRow): Promise<void> {
    if (ALERT_MAIL_KINDS.includes(row.kind)) {
      await sendAlertMail(row);
      return;
    }
    if (QUOTE_MAIL_KINDS.has(row.kind)) {
      const message = await quoteMailMessage(row, settings, messageDomain, database);
      await sendPrepared(row, message, { quoteId: row.quoteId, kind: row.kind });
      return;
    }
    if (LEASE_FILE_MAIL_KINDS.has(row.kind)) {
      const message = await leaseFileMailMessage(row, settings, messageDomain, database);
      await sendPrepared(row, message, { kind: row.kind });
      return;
    }
    if (FOLLOW_UP_MAIL_KINDS.has(row.kind)) {
      const message = await followUpMailMessage(row, settings, messageDomain, database);
      await sendPrepared(row, message, { kind: row.kind });
      return;
    }
    if (row.kind === MAIL_KINDS.passwordReset) {
      await sendPasswordReset(row);
      return;
    }
    if (row.kind === MAIL_KINDS.requestReply) {
      const message = await replyMailMessage(row, settings.from, database);
      await sendPrepared(row, message, { requestMessageId: row.requestMessageId });
      return;
    }
    if (row.kind === MAIL_KINDS.requestReplied) {
      const message = await repliedMailMessage(row, settings, messageDomain, database);
      await sendPrepared(row, message, { requestMessageId: row.requestMessageId, kind: row.kind });
      return;
    }
    if (row.kind === MAIL_KINDS.secondFactorAlert) {
      await sendSecondFactorAlert(row);
      return;
    }
    const acknowledgement = row.kind === MAIL_KINDS.contactAcknowledgement;
    if (
      (row.kind !== MAIL_KINDS.contactNotification && !acknowledgement) ||
      row.contactRequestId === null
    ) {
      await markMailFailed(row.id, `Type de mail inconnu : ${row.kind}`, database);
      return;
    }
    const data = await contactMailData(row.contactRequestId, database);
    if (!data) {
      // Deleting a request deletes its mails: this only happens if it went during the claim.
      await markMailFailed(row.id, "La demande n'existe plus", database);
      return;
    }
    const site = siteConfig();
    const mail = acknowledgement
      ? renderContactAcknowledgement(
          acknowledgementData(data),
          contactReference(data.id, data.createdAt),
          site,
        )
      : renderContactNotification(data, settings.baseUrl, settings.pricing);
    const sent = await deliver(row, {
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
    });
    if (!sent) return;
    log.info("mail sent", {
      mailId: row.id,
      contactId: data.id,
      attempts: row.attempts,
      sinceRequestMs: Date.now() - data.createdAt.getTime(),
    });
  }

  /**
   * The mail has left: record it even if the database is restarting just now, or it would be sent
   * again when its lease expires. Retried within half the lease, while the worker runs.
   */
  function recordSent(id: number): Promise<void> {
    return retryWrite("mail sent, not recorded yet; retrying", id, () =>
      markMailSent(id, database),
    );
  }

  /** A write the worker must make even while the database restarts: retried within half the lease. */
  async function retryWrite(warning: string, id: number, write: () => Promise<void>) {
    const deadline = Date.now() + (leaseSeconds * 1000) / 2;
    for (let attempt = 0; ; attempt++) {
      try {
        await write();
        return;
      } catch (error) {
        if (!running || Date.now() > deadline) throw error;
        if (attempt === 0) log.warn(warning, { mailId: id, error });
        await delay(Math.min(2_000, 250 * 2 ** attempt));
      }
    }
  }

  // A stop lets the mails being sent finish, for a while; one cut short by the end of the grace
  // is given back: another instance sends it (at worst twice, docs/mail.md).
  const worker = startDurableQueueWorker(handle, mailQueue, {
    listenUrl: options.listenUrl,
    batchSize,
    leaseSeconds,
    pollMs,
    async beforeClaim() {
      const abandoned = await giveUpStaleMails(database);
      if (abandoned > 0) log.warn("mails marked failed after 3 days unsent", { count: abandoned });
    },
    work: send,
    onStop: () => transport.close(),
  });
  return {
    wake: worker.wake,
    async stop(graceMs) {
      running = false;
      await worker.stop(graceMs);
    },
  };
}

/**
 * Starts the worker of this instance, or says once that notifications are off. Without SMTP_URL
 * requests still queue their mail: setting SMTP_URL later sends what waited (docs/mail.md).
 */
export function startMailNotifications(
  handle: DatabaseHandle,
  settings: MailSettings | null,
  options: MailWorkerOptions = {},
): MailWorker | null {
  if (!settings) {
    log.warn(
      "e-mail notifications are off (SMTP_URL is not set): contact requests are stored and their mails wait in the outbox",
    );
    return null;
  }
  log.info("e-mail notifications on", {
    recipients: settings.to.length,
    dkim: settings.dkim
      ? `${settings.dkim.keySelector}._domainkey.${settings.dkim.domainName}`
      : "off",
  });
  void verifySmtp(settings).then((result) => {
    if (result.ok) log.info("SMTP server reachable, login accepted");
    else log.error("SMTP_URL: the SMTP server cannot be used", { reason: result.reason });
  });
  return startMailWorker(handle, settings, options);
}
