// Saved searches (issue 42): `Me prévenir des nouvelles offres` on a filtered listing.
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { offers } from "./catalogue.server";

/**
 * One address's saved search: the listing's canonical query string (offerFiltersToSearch), counted
 * once confirmed (double opt-in). The confirmation link's token is kept as its SHA-256 only.
 */
export const savedSearches = pgTable(
  "saved_searches",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    email: text("email").notNull(),
    query: text("query").notNull(),
    tokenHash: text("token_hash"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
    // The last time a new offer matched (the purge counts 6 months from it, or the confirmation).
    lastMatchAt: timestamp("last_match_at", { withTimezone: true, mode: "date" }),
    // The last digest queued for the address (at most one a day per address).
    lastMailedAt: timestamp("last_mailed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("saved_searches_email_query_unique").on(sql`lower(${t.email})`, t.query),
    uniqueIndex("saved_searches_token_hash_unique").on(t.tokenHash),
    index("saved_searches_confirmed_idx")
      .on(t.query)
      .where(sql`${t.confirmedAt} is not null`),
  ],
);

/**
 * The offers a search has already seen matching and orderable: a new row is a new match, waiting
 * for the address's digest (notified_at null, then the digest's mail_id). A row is removed when its offer stops matching or
 * is sold out, so that its return is new again.
 */
export const savedSearchOffers = pgTable(
  "saved_search_offers",
  {
    searchId: integer("search_id")
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
    offerId: integer("offer_id")
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    seenAt: timestamp("seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    notifiedAt: timestamp("notified_at", { withTimezone: true, mode: "date" }),
    // The digest (mail_outbox id) that took the match: its retry after a failed send takes it again.
    mailId: integer("mail_id"),
  },
  (t) => [
    primaryKey({ columns: [t.searchId, t.offerId] }),
    index("saved_search_offers_pending_idx")
      .on(t.searchId)
      .where(sql`${t.notifiedAt} is null`),
    // An offer's deletion cascades here.
    index("saved_search_offers_offer_idx").on(t.offerId),
  ],
);

/** Every unsubscribe link a search's mails carried (one token per mail, for all its searches). */
export const savedSearchLinks = pgTable(
  "saved_search_links",
  {
    tokenHash: text("token_hash").notNull(),
    searchId: integer("search_id")
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.tokenHash, t.searchId] }),
    index("saved_search_links_search_idx").on(t.searchId),
  ],
);
