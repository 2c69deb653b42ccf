// Which projects run a test is said by its tag and the projects' grepInvert (playwright.config.ts),
// never by a skip inside the test.
/** Needs JavaScript: left out of the -nojs projects. */
export const NEEDS_JS = "@needs-js";
/** Checks the page without JavaScript: left out of the projects with JavaScript. */
export const NO_JS = "@no-js";
/** Phone layout only (the mobile menu). */
export const PHONE_ONLY = "@phone-only";
/** Desktop layout only (the header's links). */
export const DESKTOP_ONLY = "@desktop-only";
/**
 * What a phone shows or uses its own way (a page's layout, the menu, the filter panel, a form): the
 * only tests the phone projects run, beside the phone-only ones.
 */
export const LAYOUT = "@layout";
/**
 * Reads what the server answers (statuses, redirects, a page's text and attributes), with no click
 * or form, on pages whose scripts change nothing of what is read: the same answer with or without
 * JavaScript. Run by the projects with JavaScript only (which also fail on a script error or a
 * hydration warning, fixtures.ts); every flow a visitor follows still runs in both.
 */
export const SERVER_READ = "@server-read";
