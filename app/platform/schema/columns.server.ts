// Column helpers the schema's tables share.
import { customType, integer, timestamp } from "drizzle-orm/pg-core";

/** A moment, with its time zone, read as a Date: every timestamp of the schema. */
export const at = <N extends string>(name: N) =>
  timestamp(name, { withTimezone: true, mode: "date" });

/** The row's number, drawn by the database. */
export const identity = () => integer("id").primaryKey().generatedAlwaysAsIdentity();

/** When the row was written. */
export const createdAt = () => at("created_at").notNull().defaultNow();

export const timestamps = {
  createdAt: createdAt(),
  updatedAt: at("updated_at").notNull().defaultNow(),
};

/** Bytes as bytea: a Buffer on both drivers (PGlite reads a Uint8Array). */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});
