// The visitor's acknowledgement mail: on or off, and its per-mailbox and site-wide limits.
import { createHash } from "node:crypto";
import { mailboxKey } from "~/features/mail/mailbox";
import { type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { enqueueContactNotification, MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import { hitRateLimit } from "~/platform/rate-limit.server";

/** At most one acknowledgement per mailbox in this window: the form must not mail strangers. */
export const ACK_WINDOW_MS = 10 * 60 * 1000;
const ACK_SITE_WINDOW_MS = 60 * 60 * 1000;
/** The site-wide hourly count of acknowledgements (ACK_MAIL_MAX_PER_HOUR). */
export const ACK_SITE_KEY = "ack-site";

export type AcknowledgementLimits = { maxPerHour: number };

/** The rate_limits key of a mailbox: hashed, so no address sits in a table erasure does not reach. */
export function acknowledgementKey(email: string): string {
  return `ack:${createHash("sha256").update(mailboxKey(email)).digest("base64url")}`;
}

/**
 * Queues the visitor's acknowledgement unless their mailbox (case and +tag folded) had one in the
 * last 10 minutes or the site sent `maxPerHour` this hour. The mailbox is counted first, so
 * requests to one mailbox never use up the site's allowance. The counters are rate_limits rows
 * written in the request's transaction: two requests at once queue one mail, and a rolled-back
 * request counts nothing. A request not acknowledged is still stored and notified to the team.
 */
export async function acknowledge(
  id: number,
  email: string,
  limits: AcknowledgementLimits,
  tx: Database,
): Promise<void> {
  const mailbox = await hitRateLimit(acknowledgementKey(email), 1, ACK_WINDOW_MS, tx);
  if (!mailbox.allowed) return;
  const site = await hitRateLimit(ACK_SITE_KEY, limits.maxPerHour, ACK_SITE_WINDOW_MS, tx);
  if (!site.allowed) {
    // Once per window: a flood past the cap must not flood the log too.
    if (site.count === limits.maxPerHour + 1) {
      log.warn("acknowledgement cap reached; requests are stored but not acknowledged", {
        maxPerHour: limits.maxPerHour,
        retryAfterSeconds: site.retryAfterSeconds,
      });
    }
    return;
  }
  await enqueueContactNotification(id, tx, MAIL_KINDS.contactAcknowledgement);
}

/** ACK_EMAIL, on by default when SMTP_URL is set (issue 22). */
export function acknowledgementsEnabled(): boolean {
  const e = env();
  return e.ACK_EMAIL ?? Boolean(e.SMTP_URL);
}

/** The limits acknowledgements are sent within, or undefined when they are off. */
export function acknowledgementLimits(): AcknowledgementLimits | undefined {
  return acknowledgementsEnabled() ? { maxPerHour: env().ACK_MAIL_MAX_PER_HOUR } : undefined;
}
