import type { PGlite } from "@electric-sql/pglite";
import { setTimeout as delay } from "node:timers/promises";
import nodemailer from "nodemailer";
import pg from "pg";
import { headerText, renderContactNotification } from "~/lib/contact-mail";
import type { Pricing } from "~/lib/money";
import { retryDelaySeconds } from "~/lib/outbox-backoff";
import { contactMailData } from "./contacts.server";
import type { DatabaseHandle } from "./db.server";
import { env } from "./env.server";
import { log } from "./log.server";
import {
  claimDueMails,
  giveUpStaleMails,
  MAIL_CHANNEL,
  MAIL_KINDS,
  markMailAttemptFailed,
  markMailFailed,
  markMailSent,
  nextMailDueAt,
} from "./mail-outbox.server";
import type { MailOutboxRow } from "./schema.server";
import { siteConfig } from "./site.server";

export type MailSettings = {
  smtpUrl: string;
  to: string[];
  from: string | { name: string; address: string };
  retryMaxSeconds: number;
  /** Public address of the site, for the link to the request's page. */
  baseUrl: string;
  /** How prices are shown (PRICE_DISPLAY, VAT_RATE), the mail like the site. */
  pricing: Pricing;
};

/** The notification settings, or null when SMTP_URL is not set (notifications off). */
export function mailSettings(): MailSettings | null {
  const e = env();
  if (!e.SMTP_URL) return null;
  if (!e.NOTIFY_EMAIL?.length) {
    throw new Error(
      "Configuration invalide :\n  NOTIFY_EMAIL: obligatoire quand SMTP_URL est défini",
    );
  }
  const site = siteConfig();
  return {
    smtpUrl: e.SMTP_URL,
    to: e.NOTIFY_EMAIL,
    from: e.MAIL_FROM ?? { name: site.name, address: site.email },
    retryMaxSeconds: e.MAIL_RETRY_MAX_SECONDS,
    baseUrl: site.baseUrl,
    pricing: site.pricing,
  };
}

/** Whether this instance sends notifications (the dashboard says so when it does not). */
export function notificationsEnabled(): boolean {
  return Boolean(env().SMTP_URL);
}

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

export type MailWorker = {
  /** Looks at the outbox now (also done on every NOTIFY of MAIL_CHANNEL). */
  wake(): void;
  /** Stops claiming, lets the mail being sent finish (at most graceMs), closes SMTP and LISTEN. */
  stop(graceMs?: number): Promise<void>;
};

/**
 * A refusal the SMTP server says is final (5xx: unknown recipient, relay denied, bad credentials):
 * sending again cannot succeed. 4xx replies and network errors are temporary and retried.
 */
export function isPermanentSmtpError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/**
 * Connects and logs in to the SMTP server once, at start, so that a wrong SMTP_URL (host, port,
 * credentials) is reported then rather than at the first request. Never throws.
 */
export async function verifySmtp(
  settings: MailSettings,
): Promise<{ ok: true } | { ok: false; reason: string; permanent: boolean }> {
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 10_000,
  });
  try {
    await transport.verify();
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: describeError(error), permanent: isPermanentSmtpError(error) };
  } finally {
    transport.close();
  }
}

/** An error as the dashboard shows it: the SMTP reply when there is one, never a password. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const e = error as Error & { code?: string; response?: string };
  const text = (e.response ?? e.message).replace(/\s+/g, " ").trim();
  return e.code && !text.includes(e.code) ? `${e.code} : ${text}` : text;
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
  const batchSize = options.batchSize ?? 4;
  const leaseSeconds = options.leaseSeconds ?? 300;
  const pollMs = options.pollMs ?? 10_000;
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  const messageDomain = new URL(settings.baseUrl).hostname || "localhost";

  let running = true;
  let woken = false;
  let wakeSleeper: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeSleeper?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleeper = undefined;
        resolve();
      }
      wakeSleeper = done;
    });

  async function send(row: MailOutboxRow): Promise<void> {
    if (row.kind !== MAIL_KINDS.contactNotification || row.contactRequestId === null) {
      await markMailFailed(row.id, `Type de mail inconnu : ${row.kind}`, database);
      return;
    }
    const data = await contactMailData(row.contactRequestId, database);
    if (!data) {
      // Deleting a request deletes its mails: this only happens if it went during the claim.
      await markMailFailed(row.id, "La demande n'existe plus", database);
      return;
    }
    const mail = renderContactNotification(data, settings.baseUrl, settings.pricing);
    try {
      await transport.sendMail({
        from: settings.from,
        to: settings.to,
        replyTo: { name: headerText(data.name), address: data.email },
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        // The same Message-ID on every attempt: a duplicate (see docs/mail.md) is recognisable.
        messageId: `<contact-${data.id}.mail-${row.id}@${messageDomain}>`,
        headers: { "Auto-Submitted": "auto-generated" },
      });
    } catch (error) {
      if (isPermanentSmtpError(error)) {
        // Final: failed at once with the server's reason, shown on the dashboard ('Réessayer').
        await markMailFailed(row.id, describeError(error), database);
        log.error("mail refused by the SMTP server; marked failed", {
          mailId: row.id,
          error: describeError(error),
        });
        return;
      }
      const delaySeconds = retryDelaySeconds(row.attempts, settings.retryMaxSeconds);
      await markMailAttemptFailed(row.id, describeError(error), delaySeconds, database);
      log.warn("mail not sent; will retry", {
        mailId: row.id,
        attempts: row.attempts,
        retryInSeconds: delaySeconds,
        error: describeError(error),
      });
      return;
    }
    await recordSent(row.id);
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
  async function recordSent(id: number): Promise<void> {
    const deadline = Date.now() + (leaseSeconds * 1000) / 2;
    for (let attempt = 0; ; attempt++) {
      try {
        await markMailSent(id, database);
        return;
      } catch (error) {
        if (!running || Date.now() > deadline) throw error;
        if (attempt === 0) log.warn("mail sent, not recorded yet; retrying", { mailId: id, error });
        await delay(Math.min(2_000, 250 * 2 ** attempt));
      }
    }
  }

  /** One look at the outbox; returns how long to sleep. */
  async function cycle(): Promise<number> {
    const abandoned = await giveUpStaleMails(database);
    if (abandoned > 0) log.warn("mails marked failed after 3 days unsent", { count: abandoned });
    const claimed = await claimDueMails(batchSize, leaseSeconds, database);
    // A stop lets the mails being sent finish.
    await Promise.all(claimed.map(send));
    if (claimed.length === batchSize) return 0;
    const next = await nextMailDueAt(database);
    if (!next) return pollMs;
    // Never a busy loop on a row another instance holds or on clock differences.
    return Math.min(pollMs, Math.max(100, next.getTime() - Date.now()));
  }

  const stopListening = listen(handle, options.listenUrl, wake);

  const loop = (async () => {
    // After a failed look (database restarting), look again soon, then less often.
    let failures = 0;
    while (running) {
      woken = false;
      let delay: number;
      try {
        delay = await cycle();
        failures = 0;
      } catch (error) {
        failures++;
        delay = Math.min(pollMs, 500 * 2 ** (failures - 1));
        log.warn("mail outbox unavailable; will look again", { error, retryInMs: delay });
      }
      if (!running) break;
      if (!woken && delay > 0) await sleep(delay);
    }
  })();

  return {
    wake,
    async stop(graceMs = 10_000) {
      running = false;
      wakeSleeper?.();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        loop,
        new Promise((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
      await stopListening();
      transport.close();
      log.info("mail worker stopped");
    },
  };
}

/**
 * Calls wake on every NOTIFY of MAIL_CHANNEL. PGlite delivers its own notifications in-process; on
 * PostgreSQL one dedicated connection listens, and is reopened after a failure (polling covers
 * the gap). Returns the function that stops listening.
 */
function listen(
  handle: DatabaseHandle,
  listenUrl: string | undefined,
  wake: () => void,
): () => Promise<void> {
  if (handle.kind === "pglite") {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    const unlisten = client.listen(MAIL_CHANNEL, wake);
    unlisten.catch((error: unknown) => log.warn("mail LISTEN failed", { error }));
    return async () => {
      await (await unlisten.catch(() => undefined))?.().catch(() => {});
    };
  }
  if (!listenUrl) return async () => {};
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  // Reopened soon after a loss (a PostgreSQL restart takes seconds), then at most every 2 s.
  let failures = 0;
  const connect = async () => {
    const next = new pg.Client({ connectionString: listenUrl, connectionTimeoutMillis: 5_000 });
    const reconnect = () => {
      if (client !== next) return;
      client = undefined;
      next.end().catch(() => {});
      failures++;
      if (!stopped)
        retry = setTimeout(() => void connect(), Math.min(2_000, 250 * 2 ** (failures - 1)));
    };
    next.on("error", (error) => {
      log.warn("mail LISTEN connection lost", { error: error.message });
      reconnect();
    });
    next.on("end", reconnect);
    next.on("notification", wake);
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${MAIL_CHANNEL}`);
      if (failures > 0) log.info("mail LISTEN connection restored", { attempts: failures });
      failures = 0;
      // Mails queued while the connection was down: look now.
      wake();
    } catch (error) {
      log.warn("mail LISTEN connection failed", { error });
      reconnect();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
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
  log.info("e-mail notifications on", { recipients: settings.to.length });
  void verifySmtp(settings).then((result) => {
    if (result.ok) log.info("SMTP server reachable, login accepted");
    else log.error("SMTP_URL: the SMTP server cannot be used", { reason: result.reason });
  });
  return startMailWorker(handle, settings, options);
}
