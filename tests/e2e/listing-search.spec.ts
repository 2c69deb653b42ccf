import type { Page } from "@playwright/test";
import { expect, noJs, test } from "./fixtures";
import { SERVER_READ } from "./tags";

// Issue 42: the listing's search as buyers type, on the demo catalogue, with and without
// JavaScript.

const titles = (page: Page) => page.getByRole("main").getByRole("heading", { level: 2 });

test("finds what the buyer means: synonyms, ligatures, accents, typos, glued sizes", async ({
  page,
}, testInfo) => {
  await page.goto("/offers");
  await page.getByLabel("Rechercher").fill("epic 32 coeurs");
  if (noJs(testInfo)) await page.getByRole("button", { name: "Appliquer les filtres" }).click();
  await expect(page).toHaveURL(/\/offers\?q=epic\+32\+coeurs$/);
  await expect(titles(page)).toHaveText(["EPYC Performance 64"]);

  await page.goto("/offers?q=serveurs%20d%C3%A9di%C3%A9s%20ryzne");
  await expect(titles(page)).toHaveText(["Ryzen Gaming 7950X"]);
  await page.goto("/offers?q=128go%20ddr5");
  await expect(titles(page)).toHaveText(["Ryzen Gaming 7950X"]);
});

test("the title before the specifications: 'epyc' lists the EPYC offers first", async ({
  page,
}) => {
  await page.goto("/offers?q=epyc");
  const found = await titles(page).allTextContents();
  expect(found.slice(0, 2).sort()).toEqual(["EPYC Bare Metal 9254", "EPYC Performance 64"]);
  expect(found).toContain("GPU Calcul A4000"); // its processor is an EPYC
});

test(
  "a search that finds nothing proposes 'Vouliez-vous dire' as a plain link",
  { tag: SERVER_READ },
  async ({ page }) => {
    await page.goto("/offers?q=xoen%20gold");
    await expect(page.getByText(/^0 offre trouvée$/)).toBeVisible();
    const link = page.getByRole("link", { name: "xeon gold" });
    await expect(link).toHaveAttribute("href", "/offers?q=xeon+gold");
    await page.goto("/offers?q=zzzzzz");
    await expect(page.getByText("Vouliez-vous dire")).toHaveCount(0);
  },
);

test("the proposed search is followed with a click", async ({ page }) => {
  await page.goto("/offers?q=xoen%20gold");
  await page.getByRole("link", { name: "xeon gold" }).click();
  await expect(page).toHaveURL(/\/offers\?q=xeon\+gold$/);
  await expect(titles(page)).toHaveText(["LOA PME 36 mois"]);
});
