import type { APIRequestContext } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { DESKTOP_ONLY } from "./tags";

// Issue 19: a contact request is stored once and mailed once, whatever the visitor does with the
// browser after sending it (with and without JavaScript: projects desktop and desktop-nojs).

type Export = { contactRequests: { name: string; mails: { kind: string }[] }[] };

/** What the site holds about one address, read as an administrator (the personal-data export). */
async function heldAbout(request: APIRequestContext, email: string): Promise<Export> {
  const signIn = await request.post("/auth", {
    form: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  });
  expect(signIn.ok()).toBe(true);
  const response = await request.get(
    `/admin/personal-data/export?email=${encodeURIComponent(email)}`,
  );
  expect(response.status()).toBe(200);
  return (await response.json()) as Export;
}

/** The confirmation, with the request's reference to quote. */
const SENT = /\/contact\/merci\?ref=DEM-\d{4}-\d{5}$/;

test(
  "one request and one mail after a double click, a reload, back and forward, and a replayed post",
  { tag: DESKTOP_ONLY },
  async ({ page, request }, testInfo) => {
    const mark = `${testInfo.project.name}-${Date.now()}`;
    const email = `une-fois-${mark}@example.fr`;
    await page.goto("/contact");
    await page.getByLabel("Nom complet *").fill(`Une fois ${mark}`);
    await page.getByLabel("Email *").fill(email);
    await page.getByLabel("Message *").fill("Bonjour, un seul devis svp.");
    const form = page.getByRole("form", { name: "Formulaire de contact" });
    const token = await form.locator('input[name="submission"]').inputValue();
    expect(token).toMatch(/^[0-9a-f-]{36}$/);

    await page.getByRole("button", { name: "Envoyer le message" }).dblclick();
    await expect(page).toHaveURL(SENT);
    const sent = new URL(page.url());
    await expect(page.getByRole("heading", { name: "Message envoyé !" })).toBeVisible();

    // A reload reloads the confirmation (a GET), it does not post again.
    await page.reload();
    await expect(page).toHaveURL(SENT);
    await expect(page.getByRole("heading", { name: "Message envoyé !" })).toBeVisible();
    // Back to the form, then forward to the confirmation.
    await page.goBack();
    await expect(page).toHaveURL(/\/contact$/);
    await page.goForward();
    await expect(page).toHaveURL(SENT);
    await expect(page.getByRole("heading", { name: "Message envoyé !" })).toBeVisible();

    // The same form posted again (a retry on a flaky connection): the same confirmation.
    const replay = await page.request.post("/contact", {
      form: {
        name: `Une fois ${mark}`,
        email,
        phone: "",
        offer: "",
        message: "Bonjour, un seul devis svp.",
        submission: token,
      },
      maxRedirects: 0,
    });
    expect(replay.status()).toBe(303);
    expect(replay.headers()["location"]).toBe(`${sent.pathname}${sent.search}`);

    const held = await heldAbout(request, email);
    expect(held.contactRequests).toHaveLength(1);
    expect(held.contactRequests[0].mails).toHaveLength(1);
  },
);
