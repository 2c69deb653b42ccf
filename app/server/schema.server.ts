import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { CONTACT_STATUSES, OFFER_TYPES } from "~/lib/domain";

export const offerType = pgEnum("offer_type", OFFER_TYPES);
export const contactStatus = pgEnum("contact_status", CONTACT_STATUSES);

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

export const offers = pgTable(
  "offers",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    reference: text("reference").notNull(),
    description: text("description"),
    type: offerType("type").notNull().default("dedicated"),
    featured: boolean("featured").notNull().default(false),
    cpu: text("cpu").notNull(),
    ram: text("ram").notNull(),
    storage: text("storage").notNull(),
    network: text("network"),
    price: numeric("price", { precision: 10, scale: 2, mode: "string" }).notNull(),
    engagement: boolean("engagement").notNull().default(false),
    contractType: text("contract_type"),
    metaTitle: text("meta_title"),
    metaDescription: text("meta_description"),
    isActive: boolean("is_active").notNull().default(true),
    ...timestamps,
    /**
     * The four searchable fields, lower-cased, joined by a character nobody types (U+001F): one
     * LIKE on one trigram-indexed column instead of four ILIKEs (offers.server.ts).
     */
    searchText: text("search_text").generatedAlwaysAs(
      sql`lower(title || chr(31) || reference || chr(31) || cpu || chr(31) || ram)`,
    ),
  },
  (t) => [
    uniqueIndex("offers_slug_unique").on(t.slug),
    // The listing's order (newest first, id as tie-breaker): a page is read in index order. NULLS
    // FIRST is what a plain DESC sorts by; with NULLS LAST the planner would sort every row.
    index("offers_active_created_idx").on(
      t.isActive,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("offers_active_price_idx").on(t.isActive, t.price),
    index("offers_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    check("offers_price_nonnegative", sql`${t.price} >= 0`),
  ],
);

export const contactRequests = pgTable(
  "contact_requests",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    message: text("message").notNull(),
    offerId: integer("offer_id").references(() => offers.id, { onDelete: "set null" }),
    // Snapshot of the offer at the time of the request: still readable once the offer is deleted.
    offerTitle: text("offer_title"),
    offerReference: text("offer_reference"),
    status: contactStatus("status").notNull().default("pending"),
    ...timestamps,
  },
  (t) => [
    index("contact_requests_created_idx").on(t.createdAt.desc()),
    index("contact_requests_status_idx").on(t.status, t.createdAt.desc()),
    index("contact_requests_offer_idx").on(t.offerId),
  ],
);

export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role").notNull().default("admin"),
    ...timestamps,
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

export const sessions = pgTable(
  "sessions",
  {
    // SHA-256 of the token sent in the cookie: a leaked table does not leak usable sessions.
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

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

export type Offer = typeof offers.$inferSelect;
export type NewOffer = typeof offers.$inferInsert;
export type ContactRequest = typeof contactRequests.$inferSelect;
export type User = typeof users.$inferSelect;
