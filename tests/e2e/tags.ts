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
 * The page is laid out or submitted differently on a phone without JavaScript (menu, filter panel,
 * forms): the only tests the phone-nojs project runs, beside the phone-only ones.
 */
export const LAYOUT = "@layout";
