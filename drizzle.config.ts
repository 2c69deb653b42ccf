import { defineConfig } from "drizzle-kit";

// Migrations are generated from the schema only; they are applied by the app (see app/platform/db.server.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/platform/schema.server.ts",
  out: "./drizzle",
});
