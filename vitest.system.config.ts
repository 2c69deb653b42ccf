import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests against the built server (run `npm run build` first): real HTTP, real database.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/system/**/*.test.ts"],
    environment: "node",
    // One process per file (each sets its own environment before loading the server).
    pool: "forks",
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
