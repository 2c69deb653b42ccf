import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { DATA_TEMPLATE_VARIABLE } from "./tests/system/harness/server-process";
import { DESKTOP_ONLY, LAYOUT, NEEDS_JS, NO_JS, PHONE_ONLY, SERVER_READ } from "./tests/e2e/tags";

const PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;
// A second server whose contact form searches (above 5 active offers; the demo has 12).
const SEARCH_PORT = PORT + 1;
const SEARCH_BASE_URL = `http://127.0.0.1:${SEARCH_PORT}`;
// The administrator specs' own server: what they add and remove never meets the public walk's exact
// counts, so both run from the start, side by side.
const ADMIN_PORT = PORT + 2;
export const E2E_ADMIN_BASE_URL = `http://127.0.0.1:${ADMIN_PORT}`;
export const E2E_ADMIN = { email: "admin@example.fr", password: "e2e-admin-password-123" };
const adminAccount = { ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password };

// The migrated, empty data directory the launcher (tests/e2e/servers.ts) makes once per run. Set
// here, it reaches the launcher and every worker (this file is loaded by each): the built servers
// that specs start themselves (password-reset, quote-answer) copy it instead of running initdb and
// every migration (about 4 s of CPU each, four of them per run).
process.env[DATA_TEMPLATE_VARIABLE] = path.resolve("test-results/e2e-data-template");

// Debian's Chromium, never a downloaded browser. Flags keep it off the (closed) network.
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

// admin.spec.ts, admin-<area>.spec.ts and <area>.admin.spec.ts: run by the admin projects only,
// which are desktop (with and without JavaScript): the admin area is not laid out for phones.
const ADMIN_SPECS = /admin(-[\w-]+)?\.spec\.ts$/;
const SEARCH_SPECS = /contact-search\.spec\.ts$/;
// <flow>.firefox.spec.ts: Debian's Firefox ESR as the buyer (tests/e2e/firefox.ts), run by the
// Firefox projects only.
const FIREFOX_SPECS = /\.firefox\.spec\.ts$/;

const desktop = { ...devices["Desktop Chrome"], channel: undefined, launchOptions };
const phone = {
  ...devices["Pixel 7"],
  // The layout is in CSS pixels: at 1 device pixel per CSS pixel the same page has a seventh of the
  // pixels to paint in software (the phone projects ran 15 % faster).
  deviceScaleFactor: 1,
  launchOptions,
};

/** One real built server on a fresh embedded database (`dataDir`, emptied first) with the demo data. */
function builtServer(port: number, dataDir: string, env: Record<string, string>) {
  return {
    port,
    dataDir,
    env: {
      LOG_LEVEL: "warn",
      // Every browser test posts from 127.0.0.1: the per-IP contact limit is tested in tests/system.
      CONTACT_RATE_LIMIT: "1000",
      // Likewise the per-client limits of page renders and quote PDFs (tests/system/quote.test.ts).
      PUBLIC_RENDER_RATE_PER_MINUTE: "0",
      QUOTE_PDF_RATE_PER_MINUTE: "0",
      // The second factor's keys encrypted at rest, as in production (a test-only key).
      TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      ...env,
    },
  };
}

/** The tests a project leaves out, by tag (tests/e2e/tags.ts). */
function without(...tags: string[]): RegExp {
  return new RegExp(tags.join("|"));
}

export default defineConfig({
  testDir: "tests/e2e",
  // Its own folder: Playwright empties it at start; the system tests keep theirs in
  // test-results/system, so the two suites can run at the same time.
  outputDir: "test-results/e2e",
  fullyParallel: true,
  // The browsers keep both of CI's cores busy with 3 workers (measured: 2 workers 7.0 min, 3 5.8 min,
  // 4 6.7 min).
  workers: process.env.CI ? 3 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: E2E_BASE_URL,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    // Recording a trace for every test cost a fifth of the suite's time (6.2 → 4.9 min on CI's 2
    // cores), for files nobody reads in CI: CI keeps a screenshot of a failure; locally a failed
    // test keeps its trace (or run with --trace on).
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
  },
  // The administrator projects come first: their tests are the longest, and starting them first
  // keeps every worker busy to the end.
  projects: [
    {
      name: "admin",
      use: { ...desktop, baseURL: E2E_ADMIN_BASE_URL },
      testMatch: ADMIN_SPECS,
      grepInvert: without(NO_JS),
    },
    {
      name: "admin-nojs",
      use: { ...desktop, baseURL: E2E_ADMIN_BASE_URL, javaScriptEnabled: false },
      testMatch: ADMIN_SPECS,
      grepInvert: without(NEEDS_JS, SERVER_READ),
    },
    {
      name: "desktop",
      use: desktop,
      testIgnore: [ADMIN_SPECS, SEARCH_SPECS, FIREFOX_SPECS],
      grepInvert: without(NO_JS, PHONE_ONLY),
    },
    {
      name: "desktop-nojs",
      use: { ...desktop, javaScriptEnabled: false },
      testIgnore: [ADMIN_SPECS, SEARCH_SPECS, FIREFOX_SPECS],
      grepInvert: without(NEEDS_JS, SERVER_READ, PHONE_ONLY),
    },
    // The phones run what a phone shows or uses its own way (@layout: pages, menu, filter panel,
    // forms); the rest (redirects, statuses, a query's meaning) is the same server answer on any
    // device, checked on desktop with and without JavaScript.
    {
      name: "phone",
      use: phone,
      testIgnore: [ADMIN_SPECS, SEARCH_SPECS, FIREFOX_SPECS],
      grep: new RegExp([LAYOUT, PHONE_ONLY].join("|")),
      grepInvert: without(NO_JS, DESKTOP_ONLY),
    },
    {
      name: "phone-nojs",
      use: { ...phone, javaScriptEnabled: false },
      testIgnore: [ADMIN_SPECS, SEARCH_SPECS, FIREFOX_SPECS],
      grep: new RegExp([LAYOUT, PHONE_ONLY].join("|")),
      grepInvert: without(NEEDS_JS, SERVER_READ, DESKTOP_ONLY),
    },
    {
      name: "search",
      use: { ...desktop, baseURL: SEARCH_BASE_URL },
      testMatch: SEARCH_SPECS,
      grepInvert: without(NO_JS),
    },
    {
      name: "search-nojs",
      use: { ...desktop, baseURL: SEARCH_BASE_URL, javaScriptEnabled: false },
      testMatch: SEARCH_SPECS,
      grepInvert: without(NEEDS_JS, SERVER_READ),
    },
    // The buyer's forms behind a mailed link in Firefox ESR, with and without JavaScript; the
    // salesperson, where one is needed, works in Chromium (the project's `page`).
    { name: "firefox", use: desktop, testMatch: FIREFOX_SPECS },
    { name: "firefox-nojs", use: desktop, testMatch: FIREFOX_SPECS },
  ],
  // The real built servers on fresh embedded databases with the demo data: the public pages', the
  // administrator specs', and one with a contact form that searches its offers
  // (tests/e2e/contact-search.spec.ts). One launcher starts them side by side from one migrated
  // data directory (tests/e2e/servers.ts).
  webServer: {
    command: "tsx tests/e2e/servers.ts",
    wait: { stdout: /E2E_SERVERS_READY/ },
    reuseExistingServer: false,
    // A hang guard: three built servers on a slowed CI machine took minutes to start.
    timeout: 600_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      E2E_SERVERS: JSON.stringify([
        builtServer(PORT, "test-results/e2e-data", adminAccount),
        builtServer(ADMIN_PORT, "test-results/e2e-admin-data", adminAccount),
        builtServer(SEARCH_PORT, "test-results/e2e-search-data", { CONTACT_OFFER_SELECT_MAX: "5" }),
      ]),
    },
  },
});
