import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { clientScripts } from "./scripts/vite-client-scripts";

const workers =
  process.env.TEST_DB === "postgres"
    ? availableParallelism() + 1
    : Math.max(2, availableParallelism());

// Separate from vite.config.ts: the React Router plugin is not wanted in unit and integration tests.
export default defineConfig({
  // Route modules import the public pages' scripts as `?script` URLs.
  plugins: [clientScripts()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "tests/integration/**/*.test.ts",
      "tests/lint/**/*.test.ts",
    ],
    exclude: ["tests/e2e/**", "node_modules/**", "build/**"],
    environment: "node",
    globalSetup: ["tests/support/pglite-image.setup.ts"],
    // One process per worker, not per file: tests/support/per-file.setup.ts.
    isolate: false,
    setupFiles: ["tests/support/per-file.setup.ts"],
    // Hang guards, not speed limits: on a CI machine running at a tenth of its speed, opening PGlite
    // from the migrated image took over a minute in beforeAll.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    env: { TZ: "America/New_York" },
    // Vitest's default in a run is one worker fewer than the cores: one file at a time on CI's 2 cores.
    // On the embedded database the files are CPU-bound (one per core); on PostgreSQL they mostly wait
    // for the server (one more than the cores, scripts/test-postgres.sh). As many workers kept as
    // started: with `isolate: false`, Tinypool stopping a spare worker cut a run short ("Terminating
    // worker thread", files never reported).
    minWorkers: workers,
    maxWorkers: workers,
  },
});
