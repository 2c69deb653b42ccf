// The public catalogue: offers, their datacenters, the lease scale, availability alerts.
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { OFFER_TYPES } from "~/lib/domain";
import { DELIVERY_STATES } from "~/lib/offer-fields";
import type { OptionGroup } from "~/lib/offer-options";
import { at, createdAt, identity, timestamps } from "./columns.server";

export const offerType = pgEnum("offer_type", OFFER_TYPES);
export const deliveryState = pgEnum("delivery_state", DELIVERY_STATES);

/** The datacenters the administrator keeps (issue 21): an offer names one by its code. */
export const datacenters = pgTable("datacenters", {
  // The listing's `location` value: a slug of the name, never changed once offers use it.
  code: text("code").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

/** The financer's scale (`Barème LOA`): a coefficient per duration ('0.03150' = 3,150 %). */
export const leaseRates = pgTable(
  "lease_rates",
  {
    months: integer("months").primaryKey(),
    coefficient: numeric("coefficient", { precision: 8, scale: 5, mode: "string" }).notNull(),
  },
  (t) => [check("lease_rates_positive", sql`${t.months} > 0 and ${t.coefficient} > 0`)],
);

/**
 * The search's synonyms and aliases (issue 42), edited by the catalogue team: each group lists
 * phrases a buyer may type for one another (`epic` = `EPYC`). Shipped with sensible groups.
 */
export const searchSynonyms = pgTable(
  "search_synonyms",
  {
    id: identity(),
    phrases: text("phrases").array().notNull(),
    createdAt: createdAt(),
  },
  (t) => [check("search_synonyms_two_phrases", sql`cardinality(${t.phrases}) >= 2`)],
);

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
    // Specs as numbers (issue 13), optional, beside the displayed text: filters and comparison.
    cpuCores: integer("cpu_cores"),
    ramGb: integer("ram_gb"),
    storageTb: numeric("storage_tb", { precision: 8, scale: 2, mode: "string" }),
    bandwidthGbps: numeric("bandwidth_gbps", { precision: 8, scale: 2, mode: "string" }),
    // The displayed monthly price HT (decision 038): typed, or for an LOA offer with a financed
    // amount the rent of its default duration, written from the lease scale (offer-price.ts).
    price: numeric("price", { precision: 10, scale: 2, mode: "string" }).notNull(),
    // One-off setup fee HT: null when not stated, 0 when offered.
    setupFee: numeric("setup_fee", { precision: 10, scale: 2, mode: "string" }),
    // LOA terms: duration in months and purchase option amount HT.
    loaMonths: integer("loa_months"),
    loaPurchaseOption: numeric("loa_purchase_option", { precision: 10, scale: 2, mode: "string" }),
    // The duration `price` is the rent of, when the lease scale priced it (null: typed).
    pricedMonths: integer("priced_months"),
    engagement: boolean("engagement").notNull().default(false),
    contractType: text("contract_type"),
    metaTitle: text("meta_title"),
    metaDescription: text("meta_description"),
    isActive: boolean("is_active").notNull().default(true),
    // Availability (issue 21): a delivery state, its delay in days when on order, a datacenter.
    delivery: deliveryState("delivery").notNull().default("stock_24h"),
    deliveryDays: integer("delivery_days"),
    // When the offer was created or last became deliverable (AVAILABLE_NOW) from not deliverable:
    // the Atom feed's date of a new or back-in-stock offer (issue 30).
    availableSince: timestamp("available_since", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    datacenter: text("datacenter").references(() => datacenters.code, {
      onDelete: "set null",
      onUpdate: "cascade",
    }),
    // The lease simulator (issue 21): financed amount HT and the durations offered, in months.
    financedAmount: numeric("financed_amount", { precision: 10, scale: 2, mode: "string" }),
    leaseDurations: integer("lease_durations").array(),
    // Option groups with their supplements (issue 21, offer-options.ts); null without options.
    options: jsonb("options").$type<OptionGroup[]>(),
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
    // Sorting by price (both directions: a backward scan), id as tie-breaker.
    index("offers_active_price_id_idx").on(t.isActive, t.price, t.id),
    index("offers_featured_idx")
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.featured} and ${t.isActive}`),
    index("offers_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    // The admin search also matches the slug.
    index("offers_slug_trgm_idx").using("gin", sql`${t.slug} gin_trgm_ops`),
    index("offers_datacenter_idx").on(t.datacenter),
    check("offers_price_nonnegative", sql`${t.price} >= 0`),
    check(
      "offers_numbers_nonnegative",
      sql`coalesce(${t.cpuCores}, 0) >= 0 and coalesce(${t.ramGb}, 0) >= 0 and coalesce(${t.storageTb}, 0) >= 0 and coalesce(${t.bandwidthGbps}, 0) >= 0 and coalesce(${t.setupFee}, 0) >= 0 and coalesce(${t.loaMonths}, 0) >= 0 and coalesce(${t.loaPurchaseOption}, 0) >= 0 and coalesce(${t.deliveryDays}, 0) >= 0`,
    ),
  ],
);

/**
 * `Me prévenir` (issue 30): a visitor's alert on a sold-out or on-order offer. Double opt-in: it
 * counts once confirmed_at is set; it is done once notified_at is (one mail when the offer is
 * deliverable again). Only the SHA-256 of the links' token is kept, drawn again by each mail
 * (alerts.server.ts). Personal data: exported, erased and purged (7 days unconfirmed, 6 months
 * confirmed).
 */
export const offerAlerts = pgTable(
  "offer_alerts",
  {
    id: identity(),
    offerId: integer("offer_id")
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    tokenHash: text("token_hash"),
    createdAt: createdAt(),
    confirmedAt: at("confirmed_at"),
    notifiedAt: at("notified_at"),
  },
  (t) => [
    // One alert per address and offer, whatever the case of the address.
    uniqueIndex("offer_alerts_offer_email_unique").on(t.offerId, sql`lower(${t.email})`),
    uniqueIndex("offer_alerts_token_hash_unique").on(t.tokenHash),
    // The alerts waiting on an offer (admin counts, the mails when it is back).
    index("offer_alerts_waiting_idx")
      .on(t.offerId)
      .where(sql`${t.confirmedAt} is not null and ${t.notifiedAt} is null`),
    index("offer_alerts_email_lower_idx").on(sql`lower(${t.email})`),
    index("offer_alerts_created_idx").on(t.createdAt),
  ],
);

/**
 * Every link an alert's mails carried, by its token's SHA-256 (the mail worker draws one per mail):
 * each unsubscribe link works until the alert is gone, which takes its links with it.
 */
export const offerAlertLinks = pgTable(
  "offer_alert_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    alertId: integer("alert_id")
      .notNull()
      .references(() => offerAlerts.id, { onDelete: "cascade" }),
  },
  (t) => [index("offer_alert_links_alert_idx").on(t.alertId)],
);

export type Offer = typeof offers.$inferSelect;
export type Datacenter = typeof datacenters.$inferSelect;
export type NewOffer = typeof offers.$inferInsert;
export type OfferAlert = typeof offerAlerts.$inferSelect;
