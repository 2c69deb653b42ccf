import type { ContactStatus } from "./domain";

/** Events an endpoint can subscribe to (issue 22). */
export const WEBHOOK_EVENTS = ["request.created", "request.updated"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "request.created": "Nouvelle demande",
  "request.updated": "Demande modifiée (statut, attribution, note)",
};

export const WEBHOOK_URL_MAX = 2000;

/** What a `request.updated` event says changed. */
export const WEBHOOK_CHANGES = ["status", "owner", "note"] as const;
export type WebhookChange = (typeof WEBHOOK_CHANGES)[number];

/** A delivery still failing this long after its event is given up (issue 22: retried for 24 h). */
export const WEBHOOK_GIVE_UP_SECONDS = 24 * 3600;

/** The request as an event carries it: what a CRM needs to create or update its lead. */
export type WebhookRequestData = {
  id: number;
  reference: string;
  url: string;
  createdAt: string;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  offer: { title: string; reference: string } | null;
  status: ContactStatus;
  owner: string | null;
};

/**
 * The body of one event, in the Standard Webhooks shape (`type`, `timestamp`, `data`); `changes`
 * only on `request.updated`.
 */
export function webhookBody(
  type: WebhookEvent,
  at: Date,
  data: WebhookRequestData,
  changes?: readonly WebhookChange[],
): string {
  return JSON.stringify({
    type,
    timestamp: at.toISOString(),
    data: type === "request.updated" ? { ...data, changes: changes ?? [] } : data,
  });
}
