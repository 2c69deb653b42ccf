import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// System tests: the built server (`npm run build` first) in real processes, on the embedded database
// and on a real PostgreSQL. Every file starts its own servers (free ports, own data directories, own
// throwaway PostgreSQL), so files run side by side: one file's waits (restarts, retries, timeouts)
// leave the cores to another (on CI's 2 cores: 367 s one at a time, 205 s with 2 workers, 173 s
// with 3), and the timings they assert have margins a busy machine keeps.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/system/**/*.test.ts"],
    environment: "node",
    // One process per file: some files set their environment before loading the server in-process.
    pool: "forks",
    globalSetup: ["tests/system/harness/data-template.setup.ts"],
    minWorkers: 1,
    maxWorkers: Math.min(4, availableParallelism() + 1),
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
