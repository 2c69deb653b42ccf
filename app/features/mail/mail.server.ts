import { setTimeout as delay } from "node:timers/promises";
import nodemailer, { type SendMailOptions } from "nodemailer";
import { retryDelaySeconds } from "~/platform/outbox-backoff";
import type { DatabaseHandle } from "~/platform/db.server";
import { log } from "~/platform/log.server";
import {
  giveUpStaleMails,
  type MailKind,
  mailQueue,
  markMailAttemptFailed,
  markMailFailed,
  markMailSent,
  releaseMailClaim,
} from "./mail-outbox.server";
import type { MailRenderer, MailRenderers } from "./mail-renderer.server";
import { startDurableQueueWorker, type QueueWorker } from "~/platform/durable-queue.server";
import type { MailOutboxRow } from "~/platform/schema.server";
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
 * and record the outcome. Each kind is rendered by its feature's renderer, from `renderers` (the
 * table app/mail-kinds.server.ts). Wakes on NOTIFY (enqueues of this instance, and of the others on
 * PostgreSQL) and polls otherwise.
 */
export function startMailWorker(
  handle: DatabaseHandle,
  settings: MailSettings,
  renderers: MailRenderers,
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

  /**
   * Renders the mail with the renderer of its kind (its feature's, from the table given at start),
   * then sends it, or marks it failed with the reason it cannot leave.
   */
  async function prepareAndSend(row: MailOutboxRow): Promise<void> {
    const render: MailRenderer | undefined = Object.hasOwn(renderers, row.kind)
      ? renderers[row.kind as MailKind]
      : undefined;
    if (!render) {
      await markMailFailed(row.id, `Type de mail inconnu : ${row.kind}`, database);
      return;
    }
    const rendered = await render(row, { settings, messageDomain, database });
    if ("failed" in rendered) {
      await markMailFailed(row.id, rendered.failed, database);
      return;
    }
    if (!(await deliver(row, rendered.message))) return;
    log.info("mail sent", {
      mailId: row.id,
      ...rendered.logged,
      ...(rendered.requestedAt
        ? { sinceRequestMs: Date.now() - rendered.requestedAt.getTime() }
        : {}),
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
  renderers: MailRenderers,
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
  return startMailWorker(handle, settings, renderers, options);
}
