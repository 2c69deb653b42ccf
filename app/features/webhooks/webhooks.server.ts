import {
  offerColumns,
  selectRequestsWithOwner,
  sentColumns,
} from "~/platform/contact-columns.server";
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { contactReference } from "~/platform/contact-reference";
import { requestOffer } from "~/platform/request-offer";
import { vatNumberOf } from "~/lib/siren";
import {
  WEBHOOK_GIVE_UP_SECONDS,
  webhookBody,
  type WebhookDetail,
  type WebhookEvent,
  type WebhookRequestData,
} from "./webhooks";
import { db, type Database } from "~/platform/db.server";
import { claimEnded, durableQueue, retryLater } from "~/platform/durable-queue.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import {
  contactRequests,
  offers,
  webhookDeliveries,
  webhookEndpoints,
  type WebhookDelivery,
} from "~/platform/schema.server";
import { siteConfig } from "~/platform/site.server";
import { canSealStored, isSealed, open, seal } from "~/platform/secret-box.server";
import { checkEndpointUrl } from "./webhook-address.server";

/** Announced (NOTIFY) when a delivery is queued or re-queued; every instance's worker listens. */
export const WEBHOOK_CHANNEL = "webhook_deliveries";

const notifyWorkers = (database: Database) => webhookQueue.notify(database);

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

// Signing secrets are stored encrypted with TOTP_ENCRYPTION_KEY, like the second factor's keys
// (secret-box.server.ts), each bound to its endpoint; in clear without the key.
const secretContext = (endpointId: number) => `webhook_endpoints.secret:${endpointId}`;
const sealSecret = (endpointId: number, plain: string) =>
  seal(plain, env().TOTP_ENCRYPTION_KEY, secretContext(endpointId));
/** The plain secret, or null when it cannot be read (encrypted, and no key or another key). */
const openSecret = (endpointId: number, stored: string) =>
  open(stored, env().TOTP_ENCRYPTION_KEY, secretContext(endpointId));

export type EndpointCreation =
  | { kind: "created"; id: number; secret: string }
  | { kind: "private" }
  | { kind: "insecure" }
  | { kind: "unresolvable" }
  | { kind: "failed" };

/**
 * Adds an endpoint once its URL may be reached (checkEndpointUrl: `https://`, private addresses
 * only with WEBHOOK_ALLOW_PRIVATE, `http://` only then and to private addresses). The secret is
 * returned here, once: the page shows it and never again.
 */
export async function createWebhookEndpoint(
  input: { url: URL; events: WebhookEvent[] },
  context: { requestId: string },
): Promise<EndpointCreation> {
  const check = await checkEndpointUrl(input.url, env().WEBHOOK_ALLOW_PRIVATE);
  if (check.kind !== "ok") return check;
  const secret = newSecret();
  try {
    // The id binds the sealed secret to its row: known once the row is inserted.
    const row = await db().transaction(async (tx) => {
      const [inserted] = await tx
        .insert(webhookEndpoints)
        .values({ url: input.url.href, events: input.events, secret: "" })
        .returning({ id: webhookEndpoints.id });
      await tx
        .update(webhookEndpoints)
        .set({ secret: sealSecret(inserted.id, secret) })
        .where(eq(webhookEndpoints.id, inserted.id));
      return inserted;
    });
    log.info("webhook endpoint created", { requestId: context.requestId, endpointId: row.id });
    return { kind: "created", id: row.id, secret };
  } catch (error) {
    log.error("webhook endpoint creation failed", { requestId: context.requestId, error });
    return { kind: "failed" };
  }
}

/** Removes an endpoint and its deliveries. */
export async function deleteWebhookEndpoint(
  id: number,
  context: { requestId: string },
): Promise<{ kind: "deleted" | "missing" | "failed" }> {
  try {
    const rows = await db()
      .delete(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .returning({ id: webhookEndpoints.id });
    if (rows.length === 0) return { kind: "missing" };
  } catch (error) {
    log.error("webhook endpoint deletion failed", { requestId: context.requestId, error });
    return { kind: "failed" };
  }
  log.info("webhook endpoint deleted", { requestId: context.requestId, endpointId: id });
  return { kind: "deleted" };
}

/** Deliveries each endpoint shows on the page. */
export const RECENT_DELIVERIES = 10;

/** The page's view: every endpoint (never its secret) with its recent deliveries. */
export async function listWebhookEndpoints(database: Database = db()) {
  const endpoints = await database
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      events: webhookEndpoints.events,
      createdAt: webhookEndpoints.createdAt,
    })
    .from(webhookEndpoints)
    .orderBy(asc(webhookEndpoints.id));
  if (endpoints.length === 0) return [];
  const deliveries = await database
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      eventType: webhookDeliveries.eventType,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      lastError: webhookDeliveries.lastError,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookEndpoints)
    .innerJoinLateral(
      database
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, webhookEndpoints.id))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(RECENT_DELIVERIES)
        .as("webhook_deliveries"),
      sql`true`,
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id));
  return endpoints.map((endpoint) => ({
    ...endpoint,
    deliveries: deliveries.filter((d) => d.endpointId === endpoint.id),
  }));
}

export type WebhookEndpointView = Awaited<ReturnType<typeof listWebhookEndpoints>>[number];

/** The request as the events carry it, read in the transaction that changed it. */
async function requestData(
  contactRequestId: number,
  database: Database,
): Promise<WebhookRequestData | null> {
  const [row] = await selectRequestsWithOwner(
    { ...sentColumns, ...offerColumns, status: contactRequests.status },
    database,
  )
    .leftJoin(offers, eq(offers.id, contactRequests.offerId))
    .where(eq(contactRequests.id, contactRequestId));
  if (!row) return null;
  const offer = requestOffer(row);
  return {
    id: row.id,
    reference: contactReference(row.id, row.createdAt),
    url: `${siteConfig().baseUrl}/admin/contacts/${row.id}`,
    createdAt: row.createdAt.toISOString(),
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    siren: row.siren,
    vatNumber: row.siren ? vatNumberOf(row.siren) : null,
    message: row.message,
    offer: offer && { title: offer.title, reference: offer.reference },
    status: row.status,
    owner: row.owner,
    origin: {
      source: row.source,
      medium: row.medium,
      campaign: row.campaign,
      term: row.term,
      content: row.content,
      referrer: row.referrer,
    },
  };
}

/**
 * Queues an event of one request for every endpoint that wants it. Call it with the transaction
 * that makes the change, so that the change and its deliveries exist together or not at all.
 */
export async function enqueueWebhookEvent(
  type: WebhookEvent,
  contactRequestId: number,
  database: Database,
  detail: WebhookDetail = {},
): Promise<void> {
  const endpoints = await database
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(sql`${type} = any(${webhookEndpoints.events})`);
  if (endpoints.length === 0) return;
  const data = await requestData(contactRequestId, database);
  if (!data) return;
  const payload = webhookBody(type, new Date(), data, detail);
  await database.insert(webhookDeliveries).values(
    endpoints.map((endpoint) => ({
      endpointId: endpoint.id,
      contactRequestId,
      eventType: type,
      payload,
    })),
  );
  await notifyWorkers(database);
}

/** What the worker needs to send one delivery; `secret` null: it cannot be read (see openSecret). */
export type ClaimedDelivery = WebhookDelivery & { url: string; secret: string | null };

/** The deliveries as a durable queue (durable-queue.server.ts): claims, give-backs, due times. */
export const webhookQueue = durableQueue<ClaimedDelivery>({
  name: "webhook",
  channel: WEBHOOK_CHANNEL,
  table: webhookDeliveries,
  // Each claimed delivery with its endpoint's address and secret (endpoint gone: left out).
  async read(ids, database) {
    const rows = await database
      .select({
        delivery: webhookDeliveries,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(inArray(webhookDeliveries.id, ids))
      .orderBy(webhookDeliveries.id);
    return rows.map(({ delivery, url, secret }) => ({
      ...delivery,
      url,
      secret: openSecret(delivery.endpointId, secret),
    }));
  },
});

/** Claims up to `limit` due deliveries for `leaseSeconds` (see DurableQueue.claim). */
export function claimDueDeliveries(
  limit: number,
  leaseSeconds: number,
  database: Database = db(),
): Promise<ClaimedDelivery[]> {
  return webhookQueue.claim(limit, leaseSeconds, database);
}

/** One attempt's outcome: the receiver's status code when it answered. */
export type AttemptOutcome = { statusCode: number | null; error: string | null };

/** The receiver answered 2xx. */
export async function markDelivered(
  id: number,
  outcome: AttemptOutcome,
  database: Database = db(),
): Promise<void> {
  await database
    .update(webhookDeliveries)
    .set({
      status: "delivered",
      deliveredAt: sql`now()`,
      lastAttemptAt: sql`now()`,
      lastStatusCode: outcome.statusCode,
      lastError: null,
      ...claimEnded(),
    })
    .where(webhookQueue.pending(id));
}

/**
 * An attempt failed: due again after `delaySeconds`, or failed for good once the event is older
 * than 24 hours.
 */
export async function markDeliveryAttemptFailed(
  id: number,
  outcome: AttemptOutcome,
  delaySeconds: number,
  database: Database = db(),
): Promise<"retry" | "failed"> {
  const [row] = await database
    .update(webhookDeliveries)
    .set({
      status: sql`case when ${webhookDeliveries.createdAt} < now() - make_interval(secs => ${WEBHOOK_GIVE_UP_SECONDS}) then 'failed' else 'pending' end::webhook_delivery_status`,
      lastAttemptAt: sql`now()`,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error?.slice(0, 1000) ?? null,
      ...retryLater(delaySeconds),
    })
    .where(webhookQueue.pending(id))
    .returning({ status: webhookDeliveries.status });
  return row?.status === "failed" ? "failed" : "retry";
}

/**
 * `Renvoyer`: the delivery is due again now, with the same webhook-id (a receiver that already has
 * it recognises it), and its 24 hours count from now. A delivery being attempted is left alone.
 */
export async function resendDelivery(
  id: number,
  context: { requestId: string },
): Promise<{ kind: "queued" | "missing" | "failed" }> {
  try {
    const queued = await db().transaction(async (tx) => {
      const rows = await tx
        .update(webhookDeliveries)
        .set({
          status: "pending",
          attempts: 0,
          nextAttemptAt: sql`now()`,
          lockedUntil: null,
          createdAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(webhookDeliveries.id, id), webhookQueue.unclaimed))
        .returning({ id: webhookDeliveries.id });
      if (rows.length > 0) await notifyWorkers(tx);
      return rows.length > 0;
    });
    if (!queued) return { kind: "missing" };
  } catch (error) {
    log.error("webhook resend failed", { requestId: context.requestId, error });
    return { kind: "failed" };
  }
  log.info("webhook delivery queued again", { requestId: context.requestId, deliveryId: id });
  return { kind: "queued" };
}

/**
 * At start: encrypts the signing secrets stored in clear (endpoints added before
 * TOTP_ENCRYPTION_KEY was set, or before secrets were encrypted), each only if unchanged since read.
 * Without the key, says what cannot be read or what stays in clear. Also says how many endpoints
 * are `http://` while WEBHOOK_ALLOW_PRIVATE is off (their deliveries are refused). Returns how many
 * secrets it encrypted.
 */
export async function sealStoredWebhookSecrets(database: Database = db()): Promise<number> {
  const e = env();
  const stored = await database
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, secret: webhookEndpoints.secret })
    .from(webhookEndpoints);
  const insecure = stored.filter((row) => row.url.startsWith("http:")).length;
  if (insecure && !e.WEBHOOK_ALLOW_PRIVATE) {
    log.warn("webhook endpoints in http:// are refused: replace them with https:// addresses", {
      endpoints: insecure,
    });
  }
  const clear = stored.filter((row) => !isSealed(row.secret));
  const counts = { sealed: stored.length - clear.length, clear: clear.length };
  const settings = { key: e.TOTP_ENCRYPTION_KEY, siteUrl: e.SITE_URL };
  const what = { secrets: "webhook secrets", unit: "endpoints" };
  if (!canSealStored(what, counts, settings)) return 0;
  for (const row of clear) {
    await database
      .update(webhookEndpoints)
      .set({ secret: sealSecret(row.id, row.secret) })
      .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.secret, row.secret)));
  }
  if (clear.length) log.info("webhook secrets encrypted", { endpoints: clear.length });
  return clear.length;
}
