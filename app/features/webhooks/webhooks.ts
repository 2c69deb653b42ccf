import type { ContactStatus } from "~/lib/domain";

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
  company: string | null;
  siren: string | null;
  vatNumber: string | null;
  message: string;
  offer: { title: string; reference: string } | null;
  status: ContactStatus;
  owner: string | null;
  /** Where the visit that sent it came from (issue 42): utm_* and the referring site's host. */
  origin: {
    source: string | null;
    medium: string | null;
    campaign: string | null;
    term: string | null;
    content: string | null;
    referrer: string | null;
  };
};

/** The quote a `quote.*` event is about (issue 29). */
export type WebhookQuoteData = {
  number: string;
  sentAt: string;
  validUntil: string;
  totalHt: string;
  /** `quote.accepted`: who accepted, as typed on the quote's page. */
  acceptedBy?: { name: string; role: string; at: string; pdfSha256: string };
  /** `quote.declined`: when, and the reason given (or null). */
  declined?: { at: string; reason: string | null };
};

/** What the emitter passes besides the request: the changes, the quote. */
export type WebhookDetail = { changes?: readonly WebhookChange[]; quote?: WebhookQuoteData };

type EventRow = {
  /** The check box's name in the endpoint's form. */
  field: string;
  label: string;
  /** The event's `data`, from the request and the emitter's detail. */
  payload: (request: WebhookRequestData, detail: WebhookDetail) => object;
};

const withQuote = (request: WebhookRequestData, detail: WebhookDetail) => ({
  ...request,
  quote: detail.quote ?? null,
});

/**
 * The events an endpoint can subscribe to (issues 22, 29, 32), one line each: a new event is a
 * line here and its emitter's call to enqueueWebhookEvent.
 */
export const WEBHOOK_EVENT_TABLE = {
  "request.created": { field: "created", label: "Nouvelle demande", payload: (r) => r },
  "request.updated": {
    field: "updated",
    label: "Demande modifiée (statut, attribution, note)",
    payload: (r, d) => ({ ...r, changes: d.changes ?? [] }),
  },
  // Issue 40: the buyer answered by mail (read from the mailbox, attached to the request).
  "request.replied": { field: "replied", label: "Réponse du client", payload: (r) => r },
  "quote.sent": { field: "quoteSent", label: "Devis envoyé", payload: withQuote },
  "quote.accepted": { field: "quoteAccepted", label: "Devis accepté", payload: withQuote },
  "quote.declined": { field: "quoteDeclined", label: "Devis refusé", payload: withQuote },
} as const satisfies Record<string, EventRow>;

export type WebhookEvent = keyof typeof WEBHOOK_EVENT_TABLE;
export const WEBHOOK_EVENTS = Object.keys(WEBHOOK_EVENT_TABLE) as WebhookEvent[];
export type WebhookEventField = (typeof WEBHOOK_EVENT_TABLE)[WebhookEvent]["field"];

export const WEBHOOK_EVENT_LABELS = Object.fromEntries(
  WEBHOOK_EVENTS.map((event) => [event, WEBHOOK_EVENT_TABLE[event].label]),
) as Record<WebhookEvent, string>;

/** The body of one event, in the Standard Webhooks shape (`type`, `timestamp`, `data`). */
export function webhookBody(
  type: WebhookEvent,
  at: Date,
  data: WebhookRequestData,
  detail: WebhookDetail = {},
): string {
  const row: EventRow = WEBHOOK_EVENT_TABLE[type];
  return JSON.stringify({ type, timestamp: at.toISOString(), data: row.payload(data, detail) });
}
