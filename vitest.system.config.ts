import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// System tests: the built server (`npm run build` first) started as a process, over HTTP.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/system/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
