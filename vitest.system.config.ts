import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import LongestFirstSequencer from "./tests/system/harness/sequencer";

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
    // The longest files first, also on a fresh clone where Vitest has no durations yet (CI).
    sequence: { sequencer: LongestFirstSequencer },
    minWorkers: 1,
    maxWorkers: Math.min(4, availableParallelism() + 1),
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
