/**
 * The database schema, one file per topic under schema/. Everyone imports it from here, and
 * drizzle-kit reads it from here (drizzle.config.ts): a table must be re-exported to be migrated.
 */
export * from "./schema/catalogue.server";
export * from "./schema/requests.server";
export * from "./schema/conversation.server";
export * from "./schema/webhooks.server";
export * from "./schema/accounts.server";
export * from "./schema/documents.server";
export * from "./schema/state.server";
export * from "./schema/audience.server";
export * from "./schema/saved-searches.server";
