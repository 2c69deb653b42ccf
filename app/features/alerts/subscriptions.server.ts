import { createHash, randomBytes } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { hashSessionToken, isWellFormedToken } from "~/features/accounts/sessions.server";
import { mailboxKey, mailDomainKey } from "~/features/mail/mailbox";
import { notifyMailWorkers } from "~/features/mail/mail-outbox.server";
import { clientSubject } from "~/platform/client-address.server";
import type { Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { purgeRows } from "~/platform/purge.server";
import { hitRateLimit, refundRateLimit } from "~/platform/rate-limit.server";
import { mailOutbox, offers } from "~/platform/schema.server";

// What stock alerts (issue 30) and saved searches (issue 42) share: an address subscribed by
// double opt-in, whose confirmation mails are limited per mailbox, domain and site; mailed links
// whose token the database keeps as its SHA-256 only; the address's rows, found and erased.

const HOUR_MS = 60 * 60 * 1000;
/** The site-wide hourly count of confirmation mails (ALERT_MAIL_MAX_PER_HOUR). */
export const ALERT_SITE_KEY = "alert:site";

const hashed = (text: string) => createHash("sha256").update(text).digest("base64url");

/** The rate-limit counters of one request: the client's address, the mailbox and its domain (hashed). */
export function alertRateLimitKeys(email: string, clientIp: string) {
  return {
    ip: `alert:ip:${clientSubject(clientIp)}`,
    mailbox: `alert:mailbox:${hashed(mailboxKey(email))}`,
    domain: `alert:domain:${hashed(mailDomainKey(email))}`,
  };
}

/**
 * Whether a confirmation mail may go to `email`: ALERT_MAILS_PER_MAILBOX a day to its mailbox,
 * ALERT_MAILS_PER_DOMAIN_PER_HOUR to its domain (a catch-all domain takes any address), and
 * ALERT_MAIL_MAX_PER_HOUR for the whole site, counted in this order in the request's transaction
 * (rate_limits rows: every instance shares them). A refusal gives the earlier counters back, so
 * that repeats to one mailbox never use up its domain's or the site's allowance. The first refusal
 * of a window is logged; the visitor's answer is the same whatever happens here.
 */
export async function mayMailConfirmation(
  keys: ReturnType<typeof alertRateLimitKeys>,
  context: { requestId: string },
  tx: Database,
): Promise<boolean> {
  const e = env();
  const limits = [
    { name: "mailbox", key: keys.mailbox, limit: e.ALERT_MAILS_PER_MAILBOX, ms: 24 * HOUR_MS },
    { name: "domain", key: keys.domain, limit: e.ALERT_MAILS_PER_DOMAIN_PER_HOUR, ms: HOUR_MS },
    { name: "site", key: ALERT_SITE_KEY, limit: e.ALERT_MAIL_MAX_PER_HOUR, ms: HOUR_MS },
  ];
  const counted: string[] = [];
  for (const { name, key, limit, ms } of limits) {
    const hit = await hitRateLimit(key, limit, ms, tx);
    if (hit.allowed) {
      counted.push(key);
      continue;
    }
    for (const earlier of counted) await refundRateLimit(earlier, tx);
    if (hit.count === limit + 1) {
      log.warn(`alert confirmations not mailed: ${name} limit reached`, {
        requestId: context.requestId,
        limit,
        retryAfterSeconds: hit.retryAfterSeconds,
      });
    }
    return false;
  }
  return true;
}

/** A subscription table (offer_alerts, saved_searches): the columns its address and links use. */
export type SubscriptionTable = PgTable & {
  id: AnyPgColumn;
  email: AnyPgColumn;
  tokenHash: AnyPgColumn;
  createdAt: AnyPgColumn;
  confirmedAt: AnyPgColumn;
};

/**
 * Queues the confirmation mail (`outbox`, its row) of the subscription `id` stored or renewed in
 * `tx`, unless past the mail limits (mayMailConfirmation); its link is valid from now.
 */
export async function queueConfirmationMail(
  tx: Database,
  table: SubscriptionTable,
  id: number,
  outbox: typeof mailOutbox.$inferInsert,
  keys: ReturnType<typeof alertRateLimitKeys>,
  context: { requestId: string },
): Promise<void> {
  if (!(await mayMailConfirmation(keys, context, tx))) return;
  await tx.execute(sql`update ${table} set created_at = now() where ${table.id} = ${id}`);
  await tx.insert(mailOutbox).values(outbox);
  await notifyMailWorkers(tx);
}

/** What a subscription mail shows of an offer: title, reference, link, price, delivery. */
export const mailOfferColumns = {
  title: offers.title,
  reference: offers.reference,
  slug: offers.slug,
  price: offers.price,
  delivery: offers.delivery,
  deliveryDays: offers.deliveryDays,
};
export type MailOffer = Pick<typeof offers.$inferSelect, keyof typeof mailOfferColumns>;

/** A new link for a mail about to leave: its token, and the hash the database keeps. */
export function drawLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashSessionToken(token) };
}

/** A link's token as the database keeps it, or undefined for one that cannot be ours. */
export function linkTokenHash(token: string | undefined): string | undefined {
  return isWellFormedToken(token) ? hashSessionToken(token) : undefined;
}

const requestedWithin = (table: SubscriptionTable, days: number) =>
  sql`${table.createdAt} > now() - make_interval(days => ${days})`;

/** Unconfirmed and asked within `days`: its confirmation mail is still due. */
export function awaitingConfirmation(table: SubscriptionTable, days: number): SQL {
  return sql`${table.confirmedAt} is null and ${requestedWithin(table, days)}`;
}

/**
 * The retention purge of a subscription table: the rows left unconfirmed `days` after they were
 * asked, then those `expired` names, deleted with their mails and links (or, on a dry run, only
 * counted). The two counts.
 */
export async function purgeSubscriptions(
  database: Database,
  table: SubscriptionTable,
  days: number,
  expired: SQL,
  dryRun?: boolean,
): Promise<[unconfirmed: number, expired: number]> {
  const unconfirmed = sql`${table.confirmedAt} is null and ${table.createdAt} < now() - make_interval(days => ${days})`;
  return [
    await purgeRows(database, table, unconfirmed, dryRun),
    await purgeRows(database, table, expired, dryRun),
  ];
}

/** The row whose confirmation link is `tokenHash`, while it works: confirmed, or within `days`. */
export function usableConfirmLink(table: SubscriptionTable, tokenHash: string, days: number): SQL {
  return sql`${table.tokenHash} = ${tokenHash} and (${table.confirmedAt} is not null or ${requestedWithin(table, days)})`;
}

/** The rows of one address, whatever its case. */
export function ofAddress(table: SubscriptionTable, email: string): SQL {
  return sql`lower(${table.email}) = lower(${email})`;
}

/** Deletes every row of one address (their mails and links cascade); how many. */
export function deleteOfAddress(
  table: SubscriptionTable,
  email: string,
  database: Database,
): Promise<number> {
  return purgeRows(database, table, ofAddress(table, email));
}
