// Audience measurement without cookies (issue 42): views of each offer's page per day, counted by
// the server, never per visitor (no address, no identifier). Kept 25 months at most.
import { date, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { offers } from "./catalogue.server";

export const offerViews = pgTable(
  "offer_views",
  {
    offerId: integer("offer_id")
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    // The day in Europe/Paris (YYYY-MM-DD).
    day: date("day", { mode: "string" }).notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.offerId, t.day] })],
);
