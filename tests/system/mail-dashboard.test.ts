import { eq, sql } from "drizzle-orm";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailWorker, type MailWorker } from "../../app/features/mail/mail.server";
import { mailRenderers } from "../../app/mail-kinds.server";
import { mailOutbox } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { signedInAdmin } from "../support/admin";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { startAppServer, type AppServer } from "./harness/app-server";
import { send, urlencoded } from "./harness/http";
import { findFreePort } from "./harness/ports";

// The dashboard's outbox card in Debian's Chromium, with and without JavaScript: a failed mail
// shows with its last error, 'Réessayer' queues it again, and the worker sends it.
let app: AppServer;
let smtp: TestSmtpServer;
let browser: Browser;
let worker: MailWorker | undefined;
let cookie: string;

beforeAll(async () => {
  smtp = await startTestSmtpServer(await findFreePort());
  app = await startAppServer({
    TRUST_PROXY: "loopback",
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL: "ventes@example.fr",
    ACK_EMAIL: "false",
  });
  ({ cookie } = await signedInAdmin(app.database.db));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
});

afterAll(async () => {
  await worker?.stop();
  await browser?.close();
  await app?.close();
  await smtp?.stop();
});

/** A request posted through the form whose mail then failed for good (3 days of refusals). */
async function failedMailOf(name: string): Promise<number> {
  const answer = await send(app.baseUrl, {
    method: "POST",
    path: "/contact",
    headers: [["Content-Type", "application/x-www-form-urlencoded"]],
    body: urlencoded({ name, email: "prospect@example.com", phone: "", message: "Bonjour" }),
  });
  expect(answer.status).toBe(303);
  const [row] = await app.database.db
    .update(mailOutbox)
    .set({
      status: "failed",
      attempts: 7,
      lastError: "EAUTH : 535 Authentication credentials invalid",
      createdAt: sql`now() - interval '4 days'`,
    })
    .where(eq(mailOutbox.status, "pending"))
    .returning({ id: mailOutbox.id });
  return row.id;
}

async function adminPage(javaScriptEnabled: boolean): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled, locale: "fr-FR" });
  const [name, value] = cookie.split("=");
  await context.addCookies([{ name, value, url: app.baseUrl }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  await page.goto(`${app.baseUrl}/admin`);
  return { page, problems };
}

describe(`dashboard: notification e-mails (${testDatabaseKind})`, () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`shows a failed mail with its error and retries it (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async () => {
      smtp.mails.length = 0;
      const name = javaScriptEnabled ? "Prospect JS" : "Prospect sans JS";
      const id = await failedMailOf(name);
      const { page, problems } = await adminPage(javaScriptEnabled);
      const card = page.locator("[data-mail-outbox]");
      await expect(
        card.getByRole("heading", { name: "Notifications par e-mail" }).count(),
      ).resolves.toBe(1);
      expect(await card.locator("[data-mail-failed]").textContent()).toBe("1");
      expect(await card.textContent()).toContain(
        "Dernière erreur : EAUTH : 535 Authentication credentials invalid",
      );
      expect(await card.textContent()).not.toContain("Notifications désactivées");
      const link = card.getByRole("link", { name: `Demande de ${name}` });
      expect(await link.getAttribute("href")).toMatch(/^\/admin\/contacts\/\d+$/);

      worker = startMailWorker(
        app.database,
        {
          smtpUrl: smtp.url,
          to: ["ventes@example.fr"],
          from: "site@example.fr",
          retryMaxSeconds: 1,
          baseUrl: app.baseUrl,
          pricing: { vatRate: 20, display: "ht" },
        },
        mailRenderers,
        { pollMs: 500 },
      );
      await card
        .getByRole("button", { name: `Réessayer l'envoi de l'e-mail de la demande de ${name}` })
        .click();
      if (javaScriptEnabled) {
        await page.getByText("E-mail remis en file d'envoi").waitFor();
      } else {
        await page.waitForLoadState("load");
      }
      const [mail] = await smtp.waitForMails(1);
      expect(mail.parsed.subject).toBe(`Nouvelle demande de contact : ${name}`);
      for (let i = 0; i < 100; i++) {
        const [row] = await app.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
        if (row.status === "sent") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await page.goto(`${app.baseUrl}/admin`);
      expect(await card.locator("[data-mail-failed]").textContent()).toBe("0");
      expect(await card.textContent()).toContain("Aucun e-mail en échec.");
      expect(problems).toEqual([]);
      await page.context().close();
      await worker.stop();
      worker = undefined;
    });
  }
});
