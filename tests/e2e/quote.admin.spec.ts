import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { pdfText } from "../support/pdf-text";
import { openAsAdmin, stamp } from "./admin-support";
import { expect, test } from "./fixtures";

// A request's quote (issue 21): the configuration sent from the offer page, read on the request's
// page and in its PDF, numbered once (with and without JavaScript).

/** Clicks the link and reads the PDF it downloads. */
async function downloadText(page: Page, name: string) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name }).click(),
  ]);
  return {
    file: download.suggestedFilename(),
    text: await pdfText(readFileSync(await download.path())),
  };
}

test("a request's quote carries its configuration and keeps its number", async ({
  page,
}, testInfo) => {
  const id = stamp(testInfo).replace(/[^a-z0-9]/gi, "");
  await page.goto("/offers/epyc-performance-64?o0=1");
  const contact = await page
    .getByRole("link", { name: "Demander des informations" })
    .getAttribute("href");
  const offer = new URL(contact!, E2E_ADMIN_BASE_URL).searchParams.get("offer")!;
  const sent = await page.request.post("/contact", {
    headers: { Origin: E2E_ADMIN_BASE_URL },
    form: {
      name: `Devis ${id}`,
      email: "devis@example.fr",
      phone: "",
      offer,
      configuration: "o0=1",
      message: "Un devis pour cette configuration.",
      website: "",
    },
  });
  expect(sent.status()).toBe(200);

  await openAsAdmin(page, `/admin/contacts?q=${id}`);
  await page.getByRole("link", { name: `Devis ${id}` }).click();
  await expect(page.getByText("Mémoire : 512 Go (+120,00")).toBeVisible();

  const first = await downloadText(page, "Devis (PDF)");
  expect(first.file).toMatch(/^DEV-\d{4}-\d{5}\.pdf$/);
  const number = first.file.replace(".pdf", "");
  expect(first.text).toContain(`N° ${number}`);
  expect(first.text).toContain(`Devis ${id}`);
  expect(first.text).toContain("512 Go");
  expect(first.text).toContain("1 019,99 €");

  await page.reload();
  await expect(page.getByRole("link", { name: /Devis \(PDF\)/ })).toContainText(number);
  const again = await downloadText(page, `Devis (PDF) ${number}`);
  expect(again.file).toBe(`${number}.pdf`);
  expect(again.text).toContain(`N° ${number}`);
});
