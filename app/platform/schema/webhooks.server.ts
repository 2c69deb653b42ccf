// Webhook endpoints and their delivery outbox.
import { sql } from "drizzle-orm";
import { index, integer, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { timestamps } from "./columns.server";
import { contactRequests } from "./requests.server";

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export const webhookDeliveryStatus = pgEnum("webhook_delivery_status", WEBHOOK_DELIVERY_STATUSES);

/**
 * Endpoints of outside tools (a CRM) that receive the requests' events (issue 22), signed to the
 * Standard Webhooks specification with their own secret (`whsec_…`, shown once at creation).
 */
export const webhookEndpoints = pgTable("webhook_endpoints", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  url: text("url").notNull(),
  // Event types the endpoint wants (WEBHOOK_EVENTS).
  events: text("events").array().notNull(),
  secret: text("secret").notNull(),
  ...timestamps,
});

/**
 * Outbox of webhook deliveries, one row per event and endpoint, claimed like mail_outbox. The body
 * is frozen when the event happens (it says what changed then); the request's erasure or purge
 * removes its deliveries, personal data included.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    contactRequestId: integer("contact_request_id").references(() => contactRequests.id, {
      onDelete: "cascade",
    }),
    eventType: text("event_type").notNull(),
    payload: text("payload").notNull(),
    status: webhookDeliveryStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt.desc()),
    index("webhook_deliveries_request_idx").on(t.contactRequestId),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
