import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import { retryDelaySeconds } from "~/platform/outbox-backoff";
import type { DatabaseHandle } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { startDurableQueueWorker, type QueueWorker } from "~/platform/durable-queue.server";
import { addressRule, guardedLookup, refusedLiteral } from "./webhook-address.server";
import {
  markDelivered,
  markDeliveryAttemptFailed,
  webhookQueue,
  type AttemptOutcome,
  type ClaimedDelivery,
} from "./webhooks.server";

/** How long a receiver has to answer; the claim's lease is longer. */
const DELIVERY_TIMEOUT_MS = 10_000;

export type WebhookWorkerOptions = {
  listenUrl?: string;
  batchSize?: number;
  leaseSeconds?: number;
  pollMs?: number;
};

/** The headers of one attempt, signed by the Standard Webhooks library with the endpoint's secret. */
export function signedHeaders(
  delivery: { id: number; secret: string; payload: string },
  at: Date,
): Record<string, string> {
  const messageId = `msg_${delivery.id}`;
  return {
    "content-type": "application/json",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(delivery.secret).sign(messageId, at, delivery.payload),
  };
}

/** Why an attempt is not made: the stored secret cannot be read with this server's key. */
export const UNREADABLE_SECRET =
  "Secret de signature illisible : TOTP_ENCRYPTION_KEY absente ou différente de celle qui l'a chiffré";

/**
 * One POST to the endpoint with node:http(s): redirects are not followed, and the address
 * connected to is checked: by the lookup for a host name, here for an IP literal (node:http does
 * not look those up). `http://` only with WEBHOOK_ALLOW_PRIVATE, to private addresses only.
 */
function post(
  delivery: ClaimedDelivery & { secret: string },
  allowPrivate: boolean,
): Promise<AttemptOutcome> {
  const url = new URL(delivery.url);
  const rule = addressRule(url, allowPrivate);
  const refused = refusedLiteral(url, rule);
  if (refused || rule === null) {
    return Promise.resolve({ statusCode: null, error: refused?.message ?? "https:// requis" });
  }
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const body = Buffer.from(delivery.payload, "utf8");
  return new Promise((resolve) => {
    const req = send(
      url,
      {
        method: "POST",
        headers: {
          ...signedHeaders(delivery, new Date()),
          "content-length": String(body.length),
          "user-agent": "ServeurPro-Webhooks/1",
        },
        lookup: guardedLookup(rule),
        timeout: DELIVERY_TIMEOUT_MS,
      },
      (res) => {
        // The answer's body is not kept: a receiver's text is not ours to store.
        res.resume();
        res.on("end", () => {
          const statusCode = res.statusCode ?? 0;
          const ok = statusCode >= 200 && statusCode < 300;
          resolve({ statusCode, error: ok ? null : `HTTP ${statusCode}` });
        });
        res.on("error", (error) =>
          resolve({ statusCode: res.statusCode ?? null, error: error.message }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error("Délai de réponse dépassé")));
    req.on("error", (error) => resolve({ statusCode: null, error: error.message }));
    req.end(body);
  });
}

/**
 * Delivers the due webhook events, in every server instance, like the mail worker: claim a batch
 * (its own short transaction), POST each outside any transaction, record the outcome. A 2xx is
 * delivered; anything else is retried after 10 s, 20 s, 40 s… (capped by
 * WEBHOOK_RETRY_MAX_SECONDS) until the event is 24 hours old.
 */
export function startWebhookWorker(
  handle: DatabaseHandle,
  options: WebhookWorkerOptions = {},
): QueueWorker {
  const database = handle.db;
  const batchSize = options.batchSize ?? 8;
  const leaseSeconds = options.leaseSeconds ?? 60;
  const pollMs = options.pollMs ?? 10_000;
  const { WEBHOOK_ALLOW_PRIVATE, WEBHOOK_RETRY_MAX_SECONDS } = env();

  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    const { secret } = delivery;
    if (secret === null) {
      log.error("webhook secret cannot be read: TOTP_ENCRYPTION_KEY missing or changed", {
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
      });
    }
    const outcome =
      secret === null
        ? { statusCode: null, error: UNREADABLE_SECRET }
        : await post({ ...delivery, secret }, WEBHOOK_ALLOW_PRIVATE);
    if (outcome.error === null) {
      await markDelivered(delivery.id, outcome, database);
      log.info("webhook delivered", {
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
        statusCode: outcome.statusCode,
        attempts: delivery.attempts,
      });
      return;
    }
    const delaySeconds = retryDelaySeconds(delivery.attempts, WEBHOOK_RETRY_MAX_SECONDS);
    const next = await markDeliveryAttemptFailed(delivery.id, outcome, delaySeconds, database);
    log.warn(
      next === "failed" ? "webhook given up after 24 hours" : "webhook not delivered; will retry",
      {
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
        attempts: delivery.attempts,
        retryInSeconds: next === "failed" ? undefined : delaySeconds,
        error: outcome.error,
      },
    );
  }

  return startDurableQueueWorker(handle, webhookQueue, {
    listenUrl: options.listenUrl,
    batchSize,
    leaseSeconds,
    pollMs,
    work: deliver,
  });
}
