import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// System tests: the built server (`npm run build` first) in real processes, on the embedded database
// and on a real PostgreSQL. Slow; one file at a time so that the timings they measure stay honest.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/system/**/*.test.ts"],
    environment: "node",
    // One process per file: some files set their environment before loading the server in-process.
    pool: "forks",
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
