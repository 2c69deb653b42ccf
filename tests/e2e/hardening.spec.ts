import { expect, test } from "./fixtures";

test.describe("contact form protections a visitor never meets", () => {
  test("the honeypot field is out of sight and out of the keyboard path", async ({ page }) => {
    await page.goto("/contact");
    const trap = page.locator("#website");
    await expect(trap).toHaveCount(1);
    await expect(trap).not.toBeInViewport();
    await expect(page.getByRole("textbox", { name: /Laissez ce champ vide/ })).toHaveCount(0);
    // Tab through the whole form: focus never lands on it.
    await page.getByLabel("Nom complet *").focus();
    const visited: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      visited.push(await page.evaluate(() => document.activeElement?.id ?? ""));
    }
    expect(visited).toContain("message");
    expect(visited).not.toContain("website");
  });
});
