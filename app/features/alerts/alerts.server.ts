import { and, asc, count, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { CONFIRMED_ALERT_MONTHS, UNCONFIRMED_ALERT_DAYS } from "./alerts";
import {
  alertRateLimitKeys,
  awaitingConfirmation,
  deleteOfAddress,
  drawLinkToken,
  linkTokenHash,
  mailOfferColumns,
  type MailOffer,
  ofAddress,
  queueConfirmationMail,
  purgeSubscriptions,
  usableConfirmLink,
} from "./subscriptions.server";
import { AVAILABLE_NOW } from "~/lib/offer-fields";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { MAIL_KINDS, notifyMailWorkers } from "~/features/mail/mail-outbox.server";
import { takeAttempt } from "~/platform/rate-limit.server";
import { mailOutbox, offerAlertLinks, offerAlerts, offers } from "~/platform/schema.server";

// `Me prévenir` (issue 30): availability alerts on sold-out and on-order offers.
// - Double opt-in: an alert counts once its confirmation link was followed (confirmed_at).
// - The links carry a random token; the database keeps its SHA-256 only, so it never holds a usable
//   link. The mail worker draws a new token for each mail it sends (drawAlertMail): the newest
//   confirmation mail's link confirms (offer_alerts.token_hash), and every mail's unsubscribe link
//   works until the alert is gone (offer_alert_links, deleted with it).
// - The offer's return queues one mail per confirmed alert in the transaction that makes the offer
//   deliverable (queueAvailabilityAlerts) and marks the alert done: the outbox sends each once.

const HOUR_MS = 60 * 60 * 1000;

/** An offer visitors can order now: shown on the site and in stock (24 h or 72 h). */
const deliverableNow = sql<boolean>`${offers.isActive} and ${offers.delivery} in (${sql.join(
  AVAILABLE_NOW.map((state) => sql`${state}`),
  sql`, `,
)})`;

export type AlertSubscription =
  | { kind: "requested"; slug: string }
  | { kind: "available"; slug: string }
  | { kind: "missing" }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "failed" };

/**
 * `Me prévenir`: stores (or renews) the alert of `email` on the offer and queues its confirmation
 * mail, in one transaction. The answer is the same whatever the address's alerts were: an alert
 * already confirmed is left as it is (no mail), and past the mail limits (mayMailConfirmation)
 * nothing is mailed. A renewal that mails nothing keeps the link already sent working. Refused
 * per client address (ALERT_RATE_LIMIT an hour). An offer that is deliverable now needs no alert;
 * a hidden or unknown one is `missing`.
 */
export async function subscribeToAlert(
  input: { offerId: number; email: string },
  context: { clientIp: string; requestId: string },
  database: Database = db(),
): Promise<AlertSubscription> {
  const { ALERT_RATE_LIMIT } = env();
  const keys = alertRateLimitKeys(input.email, context.clientIp);
  try {
    const refused = await takeAttempt(
      [{ key: keys.ip, limit: ALERT_RATE_LIMIT, windowMs: HOUR_MS }],
      database,
    );
    if (refused) return { kind: "rate-limited", ...refused };
    return await database.transaction(async (tx) => {
      // Shared lock: the offer's return (an update) waits for this alert, or this sees it back.
      const [offer] = await tx
        .select({ slug: offers.slug, isActive: offers.isActive, available: deliverableNow })
        .from(offers)
        .where(eq(offers.id, input.offerId))
        .for("share");
      if (!offer?.isActive) return { kind: "missing" as const };
      if (offer.available) return { kind: "available" as const, slug: offer.slug };
      // A new alert, or the address's alert on this offer renewed when it is unconfirmed or done.
      // A done alert starts again with no link; an unconfirmed one keeps its link and its date
      // until a new mail is queued below (the mail worker then draws the new link).
      const stored = await tx.execute<{ id: number }>(sql`
        insert into ${offerAlerts} (offer_id, email) values (${input.offerId}, ${input.email})
        on conflict (offer_id, lower(email)) do update
          set email = excluded.email,
              created_at = case when ${offerAlerts}.notified_at is null then ${offerAlerts}.created_at else now() end,
              token_hash = case when ${offerAlerts}.notified_at is null then ${offerAlerts}.token_hash end,
              confirmed_at = null, notified_at = null
          where ${offerAlerts}.confirmed_at is null or ${offerAlerts}.notified_at is not null
        returning id`);
      const alertId = stored.rows[0]?.id;
      if (alertId === undefined) return { kind: "requested" as const, slug: offer.slug };
      const outbox = { alertId, kind: MAIL_KINDS.alertConfirmation };
      await queueConfirmationMail(tx, offerAlerts, alertId, outbox, keys, context);
      log.info("alert requested", { requestId: context.requestId, alertId });
      return { kind: "requested" as const, slug: offer.slug };
    });
  } catch (error) {
    log.error("alert request failed", { requestId: context.requestId, error });
    return { kind: "failed" };
  }
}

/** An alert's link that still works: unconfirmed links for UNCONFIRMED_ALERT_DAYS. */
const usableLink = (tokenHash: string) =>
  usableConfirmLink(offerAlerts, tokenHash, UNCONFIRMED_ALERT_DAYS);

export type AlertLink = {
  id: number;
  offer: { title: string; slug: string };
  confirmed: boolean;
  done: boolean;
};

/**
 * What a link's page shows: the alert's offer and state, or undefined for an unknown link (for
 * confirming: also an unconfirmed alert past its 7 days; unsubscribing works until it is purged).
 */
export async function findAlertByToken(
  token: string | undefined,
  purpose: "confirm" | "unsubscribe",
  database: Database = db(),
): Promise<AlertLink | undefined> {
  const tokenHash = linkTokenHash(token);
  if (!tokenHash) return undefined;
  const [row] = await database
    .select({
      id: offerAlerts.id,
      title: offers.title,
      slug: offers.slug,
      confirmedAt: offerAlerts.confirmedAt,
      notifiedAt: offerAlerts.notifiedAt,
    })
    .from(offerAlerts)
    .innerJoin(offers, eq(offers.id, offerAlerts.offerId))
    .where(
      purpose === "confirm"
        ? usableLink(tokenHash)
        : sql`${offerAlerts.id} = (select ${offerAlertLinks.alertId} from ${offerAlertLinks} where ${offerAlertLinks.tokenHash} = ${tokenHash})`,
    )
    .limit(1);
  if (!row) return undefined;
  return {
    id: row.id,
    offer: { title: row.title, slug: row.slug },
    confirmed: row.confirmedAt !== null,
    done: row.notifiedAt !== null,
  };
}

export type AlertConfirmation =
  | { kind: "confirmed"; offer: { title: string; slug: string }; available: boolean }
  | { kind: "invalid-link" };

/**
 * The confirmation link's button: the alert counts from now. Following it twice is harmless. If
 * the offer is already deliverable again, its one mail is queued at once and the alert is done.
 */
export async function confirmAlert(
  token: string | undefined,
  context: { requestId: string },
  database: Database = db(),
): Promise<AlertConfirmation> {
  const tokenHash = linkTokenHash(token);
  if (!tokenHash) return { kind: "invalid-link" };
  return database.transaction(async (tx) => {
    const [alert] = await tx
      .select({
        id: offerAlerts.id,
        offerId: offerAlerts.offerId,
        confirmedAt: offerAlerts.confirmedAt,
      })
      .from(offerAlerts)
      .where(usableLink(tokenHash))
      .for("update");
    if (!alert) return { kind: "invalid-link" as const };
    // Shared lock on the offer: its return either sees this alert confirmed or happens first.
    const [offer] = await tx
      .select({ title: offers.title, slug: offers.slug })
      .from(offers)
      .where(eq(offers.id, alert.offerId))
      .for("share");
    if (alert.confirmedAt === null) {
      await tx
        .update(offerAlerts)
        .set({ confirmedAt: sql`now()` })
        .where(eq(offerAlerts.id, alert.id));
      log.info("alert confirmed", { requestId: context.requestId, alertId: alert.id });
    }
    const queued = await queueAvailabilityAlerts(alert.offerId, tx);
    return {
      kind: "confirmed" as const,
      offer,
      available: queued > 0 || (await isDeliverable(alert.offerId, tx)),
    };
  });
}

async function isDeliverable(offerId: number, database: Database): Promise<boolean> {
  const [row] = await database
    .select({ available: deliverableNow })
    .from(offers)
    .where(eq(offers.id, offerId));
  return row?.available ?? false;
}

/**
 * The unsubscribe link (a page's button, or a mail client's one-click POST): the alert and its
 * unsent mails are deleted. `invalid-link` when it is already gone.
 */
export async function unsubscribeAlert(
  token: string | undefined,
  context: { requestId: string },
  database: Database = db(),
): Promise<{ kind: "unsubscribed"; offer: { title: string } } | { kind: "invalid-link" }> {
  const tokenHash = linkTokenHash(token);
  if (!tokenHash) return { kind: "invalid-link" };
  const rows = await database.execute<{ id: number; title: string }>(sql`
    delete from ${offerAlerts} a using ${offers} o, ${offerAlertLinks} l
    where o.id = a.offer_id and a.id = l.alert_id and l.token_hash = ${tokenHash}
    returning a.id, o.title`);
  const row = rows.rows[0];
  if (!row) return { kind: "invalid-link" };
  log.info("alert unsubscribed", { requestId: context.requestId, alertId: row.id });
  return { kind: "unsubscribed", offer: { title: row.title } };
}

/**
 * Call in the transaction of every write that can make an offer deliverable (availability,
 * visibility): when it is (shown and in stock), each confirmed alert still waiting on it gets its
 * one mail, queued here, and is marked done, so a later change mails nothing. Returns how many.
 */
export async function queueAvailabilityAlerts(offerId: number, tx: Database): Promise<number> {
  const queued = await tx.execute<Record<string, unknown>>(sql`
    with back as (
      select id from ${offers} where id = ${offerId} and ${deliverableNow}
    ), done as (
      update ${offerAlerts} set notified_at = now()
      where offer_id in (select id from back) and confirmed_at is not null and notified_at is null
      returning id
    )
    insert into ${mailOutbox} (alert_id, kind)
    select id, ${MAIL_KINDS.alertAvailable} from done
    returning id`);
  const n = queued.rows.length;
  if (n > 0) {
    await notifyMailWorkers(tx);
    log.info("availability alerts queued", { offerId, mails: n });
  }
  return n;
}

export type AlertMailData = {
  email: string;
  token: string;
  offer: MailOffer;
};

/**
 * The worker's look at an alert mail as it sends it: a new token whose hash replaces the alert's
 * (confirming) and joins its unsubscribe links, with the address and the offer. Undefined when the mail is no longer due: a confirmation whose
 * alert was confirmed, renewed or is past its 7 days; an alert deleted meanwhile.
 */
export async function drawAlertMail(
  alertId: number,
  kind: string,
  database: Database = db(),
): Promise<AlertMailData | undefined> {
  const { token, tokenHash } = drawLinkToken();
  const stillDue =
    kind === MAIL_KINDS.alertConfirmation
      ? awaitingConfirmation(offerAlerts, UNCONFIRMED_ALERT_DAYS)
      : isNotNull(offerAlerts.notifiedAt);
  const [alert] = await database
    .update(offerAlerts)
    .set({ tokenHash })
    .where(and(eq(offerAlerts.id, alertId), stillDue))
    .returning({ email: offerAlerts.email, offerId: offerAlerts.offerId });
  if (!alert) return undefined;
  await database.insert(offerAlertLinks).values({ tokenHash, alertId });
  const [offer] = await database
    .select(mailOfferColumns)
    .from(offers)
    .where(eq(offers.id, alert.offerId));
  return offer ? { email: alert.email, token, offer } : undefined;
}

/** A column of an offers query: its confirmed alerts still waiting (the partial index answers). */
export const waitingAlertsColumn = sql<number>`(select count(*)::int from ${offerAlerts} where ${offerAlerts.offerId} = ${offers.id} and ${offerAlerts.confirmedAt} is not null and ${offerAlerts.notifiedAt} is null)`;

/** Confirmed alerts waiting on each offer (the demand the admin list and editor show). */
export async function waitingAlertCounts(
  offerIds: number[],
  database: Database = db(),
): Promise<Map<number, number>> {
  if (offerIds.length === 0) return new Map();
  const rows = await database
    .select({ offerId: offerAlerts.offerId, n: count() })
    .from(offerAlerts)
    .where(
      and(
        inArray(offerAlerts.offerId, offerIds),
        isNotNull(offerAlerts.confirmedAt),
        isNull(offerAlerts.notifiedAt),
      ),
    )
    .groupBy(offerAlerts.offerId);
  return new Map(rows.map((r) => [r.offerId, r.n]));
}

/**
 * Retention: unconfirmed alerts UNCONFIRMED_ALERT_DAYS after their request, confirmed ones (waiting
 * or done) CONFIRMED_ALERT_MONTHS after their confirmation, with their mails. Counts by kind.
 */
export async function purgeAlerts(
  options: { dryRun?: boolean } = {},
  database: Database = db(),
): Promise<{ unconfirmed: number; confirmed: number }> {
  const expired = sql`confirmed_at < now() - make_interval(months => ${CONFIRMED_ALERT_MONTHS})`;
  const [unconfirmed, confirmed] = await purgeSubscriptions(
    database,
    offerAlerts,
    UNCONFIRMED_ALERT_DAYS,
    expired,
    options.dryRun,
  );
  return { unconfirmed, confirmed };
}

// Personal data (the page `Données personnelles`): one address's alerts, exported and erased.

export async function alertsOfAddress(email: string, database: Database = db()) {
  return database
    .select({
      id: offerAlerts.id,
      email: offerAlerts.email,
      offerTitle: offers.title,
      offerReference: offers.reference,
      createdAt: offerAlerts.createdAt,
      confirmedAt: offerAlerts.confirmedAt,
      notifiedAt: offerAlerts.notifiedAt,
    })
    .from(offerAlerts)
    .innerJoin(offers, eq(offers.id, offerAlerts.offerId))
    .where(ofAddress(offerAlerts, email))
    .orderBy(asc(offerAlerts.createdAt), asc(offerAlerts.id));
}

export type AlertOfAddress = Awaited<ReturnType<typeof alertsOfAddress>>[number];

/** Deletes every alert of one address (their mails cascade); how many. */
export const deleteAlertsOfAddress = (email: string, database: Database) =>
  deleteOfAddress(offerAlerts, email, database);
