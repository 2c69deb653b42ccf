import { afterAll, vi } from "vitest";

// The files of one worker share its process (`isolate: false` in vitest.config.ts): third-party
// modules (PGlite, React, Drizzle) load once per worker instead of once per file. Our own modules
// are evaluated again for each file, so their state (caches, the configuration read once from the
// environment) starts fresh, and what a file sets in `process.env` is put back after it.
vi.resetModules();
const environment = { ...process.env };
afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in environment)) delete process.env[key];
  Object.assign(process.env, environment);
});
