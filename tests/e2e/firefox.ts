import {
  firefox,
  type Browser as FirefoxBrowser,
  type Locator as FirefoxLocator,
  type Page as FirefoxPage,
} from "playwright-core-firefox-esr";
import { expect, noJs, test as base } from "./fixtures";

/**
 * Debian's Firefox ESR, driven over WebDriver BiDi (never a downloaded browser). The driver is
 * playwright-core 1.60 (the devDependency `playwright-core-firefox-esr`): from 1.61 Playwright sends
 * `emulation.setMediaFeaturesOverride` with every new context, a command ESR 153 does not know.
 * Without JavaScript, the page's scripts are off by Firefox's own preference (the context option
 * does not reach Firefox over BiDi).
 */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

export type { FirefoxLocator, FirefoxPage };

export const test = base.extend<{ firefoxPage: FirefoxPage }, { firefoxBrowser: FirefoxBrowser }>({
  firefoxBrowser: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads what a fixture needs from it
    async ({}, use, workerInfo) => {
      const browser = await firefox.launch({
        channel: "moz-firefox",
        executablePath: FIREFOX_PATH,
        headless: true,
        timeout: 120_000,
        firefoxUserPrefs: noJs(workerInfo) ? { "javascript.enabled": false } : {},
      });
      await use(browser);
      await browser.close();
    },
    { scope: "worker" },
  ],
  // A fresh profile's context per test, watched as fixtures.ts watches Chromium's pages.
  firefoxPage: async ({ firefoxBrowser }, use) => {
    const context = await firefoxBrowser.newContext({
      locale: "fr-FR",
      timezoneId: "Europe/Paris",
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    await use(page);
    await context.close();
    expect(problems, "page errors in Firefox").toEqual([]);
  },
});

/*
 * The person's own keys, the same with and without JavaScript: with scripts off, Playwright 1.60
 * cannot fill or click in Firefox (its actionability checks wait for an animation frame that never
 * comes), but the focus and the keyboard are the browser's own.
 */

/** Types `text` into `field` in place of what it held, key by key, as the person does. */
export async function typeInto(field: FirefoxLocator, text: string) {
  await field.focus();
  await field.page().keyboard.press("Control+A");
  await field.page().keyboard.type(text);
}

/** Activates a button or a link from the keyboard (Enter). */
export async function pressOn(target: FirefoxLocator) {
  await target.focus();
  await target.page().keyboard.press("Enter");
}

/** Ticks a checkbox from the keyboard (Space). */
export async function tick(box: FirefoxLocator) {
  await box.focus();
  await box.page().keyboard.press("Space");
}

/**
 * The text of every element `target` finds, joined, "" while there is none or while the page
 * navigates: what a test waits on with `expect.poll` (the locator assertions wait on an animation
 * frame, as the actions do).
 */
export async function textOf(target: FirefoxLocator): Promise<string> {
  const texts = await target.allTextContents().catch(() => []);
  return texts.join(" ").replace(/\s+/g, " ").trim();
}

export { expect };
