import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { clientScripts } from "./scripts/vite-client-scripts";

// Separate from vite.config.ts: the React Router plugin is not wanted in unit and integration tests.
export default defineConfig({
  // Route modules import the public pages' scripts as `?script` URLs.
  plugins: [clientScripts()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts"],
    exclude: ["tests/e2e/**", "node_modules/**", "build/**"],
    environment: "node",
    globalSetup: ["tests/support/pglite-image.setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { TZ: "America/New_York" },
  },
});
