import type { Page } from "@playwright/test";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "../system/harness/ports";
import { type ServerProcess, startServer } from "../system/harness/server-process";
import { expect, test } from "./fixtures";
import { mailedLinks } from "./mailed-links";

// `Me prévenir` from the offer page to the mailed links (issue 39), as a browser follows them, with
// and without JavaScript, in Chromium: the confirmation and the unsubscription pages
// carry a secret in their address, and their own form must still post (`Referrer-Policy:
// same-origin`; under `no-referrer` the browser sends `Origin: null`). The links exist only in the
// mail, so this spec runs its own built server sending to a real SMTP server on loopback.

const OFFER = { slug: "epyc-bare-metal-9254", title: "EPYC Bare Metal 9254" };

test.describe.configure({ mode: "default" });

let smtp: TestSmtpServer;
let server: ServerProcess;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startTestSmtpServer(await findFreePort());
  server = await startServer({
    port: await findFreePort(),
    env: {
      SMTP_URL: smtp.url,
      NOTIFY_EMAIL: "ventes@example.fr",
      MAIL_FROM: "ServeurPro <site@example.fr>",
      LOG_LEVEL: "warn",
      ALERT_RATE_LIMIT: "1000",
      PUBLIC_RENDER_RATE_PER_MINUTE: "0",
    },
  }).ready(170_000);
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** Asks `Me prévenir` on the exhausted offer's page, as the visitor does. */
async function askAlert(page: Page, email: string) {
  await page.goto(`${server.base}/offers/${OFFER.slug}`);
  const form = page.getByRole("form", {
    name: "Me prévenir quand l'offre est de nouveau disponible",
  });
  await form.getByLabel("Votre adresse e-mail").fill(email);
  await form.getByRole("button", { name: "Me prévenir" }).click();
  await expect(page.getByRole("status")).toContainText("Vérifiez votre boîte de réception");
}

test("the mailed links confirm an alert, then end it, from the browser's own pages", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const email = `alerte-${testInfo.project.name}-${Date.now()}@example.fr`;
  await askAlert(page, email);
  const { alertConfirm: confirm, alertUnsubscribe: unsubscribe } = await mailedLinks(smtp, email, [
    "alertConfirm",
    "alertUnsubscribe",
  ]);

  const opened = await page.goto(confirm);
  expect(opened?.headers()["referrer-policy"]).toBe("same-origin");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirmer mon alerte");
  await page.getByRole("button", { name: "Confirmer mon alerte" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alerte confirmée");
  await expect(page.getByRole("status")).toContainText(OFFER.title);
  // The link opened again: the alert is known as confirmed, no second button.
  await page.goto(confirm);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alerte confirmée");
  await expect(page.getByRole("button", { name: "Confirmer mon alerte" })).toHaveCount(0);

  const leaving = await page.goto(unsubscribe);
  expect(leaving?.headers()["referrer-policy"]).toBe("same-origin");
  await page.getByRole("button", { name: "Me désinscrire" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alerte supprimée");
  // Gone: both links now say so.
  expect((await page.goto(unsubscribe))?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lien invalide ou expiré");
  expect((await page.goto(confirm))?.status()).toBe(404);
});

test("an unconfirmed alert ended from its first mail's unsubscribe link", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const email = `sans-suite-${testInfo.project.name}-${Date.now()}@example.fr`;
  await askAlert(page, email);
  const { alertConfirm: confirm, alertUnsubscribe: unsubscribe } = await mailedLinks(smtp, email, [
    "alertConfirm",
    "alertUnsubscribe",
  ]);
  await page.goto(unsubscribe);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Se désinscrire");
  await page.getByRole("button", { name: "Me désinscrire" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alerte supprimée");
  expect((await page.goto(confirm))?.status()).toBe(404);
});
