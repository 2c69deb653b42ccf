// Small shared state: rate-limit counters and key/value settings.
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Fixed-window counters shared by every instance (sign-in and contact rate limits).
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true, mode: "date" }).notNull(),
});

// Small shared key/value state, e.g. the version of the public catalogue used to invalidate caches.
export const appState = pgTable("app_state", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
