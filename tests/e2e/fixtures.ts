import { test as base, expect, type Page } from "@playwright/test";

/**
 * Every page of every test is watched: an uncaught error, a failed hydration or a React warning
 * in the console fails the test that caused it.
 */
export const test = base.extend<{ pageProblems: string[] }>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
      page.on("console", (message) => {
        const text = message.text();
        if (message.type() === "error" || /hydrat|did not match|Warning:/i.test(text)) {
          // The browser's own log line for an HTTP error status is expected on 4xx pages.
          if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text))
            return;
          problems.push(`console.${message.type()}: ${text}`);
        }
      });
      await use(problems);
      expect(problems, "page errors or hydration warnings").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** True in the projects that run with JavaScript disabled. */
export function noJs(testInfo: { project: { name: string } }): boolean {
  return testInfo.project.name.endsWith("-nojs");
}

export function isPhone(testInfo: { project: { name: string } }): boolean {
  return testInfo.project.name.startsWith("phone");
}

/** The listing's 'Filtres' fold (offer-filters-form.tsx): shown on a phone, hidden from md up. */
export const filtersFold = (page: Page) => page.getByRole("search").locator("summary");

/** Unfolds the listing's filters on a phone; from md up they always show. */
export async function showFilters(page: Page) {
  const fold = filtersFold(page);
  if (!(await fold.isVisible())) return;
  const open = await fold.evaluate((summary) => (summary.parentElement as HTMLDetailsElement).open);
  if (!open) await fold.click();
  await expect(page.getByLabel("Type")).toBeVisible();
}

/** The page's scripts arrive a second late, as on a slow phone: the visitor can act before they run. */
export async function delayScripts(page: Page) {
  await page.route("**/assets/*.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
}
