import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "../system/harness/ports";
import { type ServerProcess, startServer } from "../system/harness/server-process";
import { expect, type FirefoxPage, pressOn, test, textOf, typeInto } from "./firefox";
import { mailedLinks } from "./mailed-links";
import { buyerOf } from "./quote-support";

// `Ma demande`'s forms in Firefox ESR, with and without JavaScript (issue 42): the buyer's message
// posted from the mailed link's page, and `Retrouver ma demande` mailing a new link that replaces
// the old one. Each page carries a secret in its address and must still post its own form.

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
      CONTACT_RATE_LIMIT: "1000",
      PUBLIC_RENDER_RATE_PER_MINUTE: "0",
    },
  }).ready(170_000);
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const heading = (page: FirefoxPage) => textOf(page.getByRole("heading", { level: 1 }));

test("the buyer writes from Ma demande, then asks for a new link", async ({
  firefoxPage: page,
}, testInfo) => {
  test.setTimeout(120_000);
  const { name, email } = buyerOf(testInfo, "Firefox");
  await page.goto(`${server.base}/contact`);
  await typeInto(page.getByLabel("Nom complet *"), name);
  await typeInto(page.getByLabel("Email *"), email);
  await typeInto(page.getByLabel("Message *"), "Bonjour, un devis svp.");
  await pressOn(page.getByRole("button", { name: "Envoyer le message" }));
  await expect.poll(() => page.url()).toMatch(/\/contact\/merci\?ref=DEM-/);
  const reference = new URL(page.url()).searchParams.get("ref")!;

  const first = await mailedLinks(smtp, email, ["requestLink"], /a bien été reçue$/);
  const opened = await page.goto(first.requestLink);
  expect(opened?.headers()["referrer-policy"]).toBe("same-origin");
  await expect.poll(() => heading(page)).toBe(`Ma demande ${reference}`);
  await typeInto(page.getByLabel("Votre message"), "Livraison possible lundi ?");
  await pressOn(page.getByRole("button", { name: "Envoyer le message" }));
  await expect.poll(() => textOf(page.getByText("Message envoyé", { exact: true }))).not.toBe("");
  expect(await textOf(page.locator("#messages ol"))).toContain("Livraison possible lundi ?");

  // Asked again by reference and address: the same answer as for anyone, and a new link.
  await page.goto(`${server.base}/ma-demande`);
  await typeInto(page.getByLabel("Référence de la demande *"), reference);
  await typeInto(page.getByLabel("Adresse e-mail *"), email);
  await pressOn(page.getByRole("button", { name: "Recevoir un nouveau lien" }));
  await expect.poll(() => textOf(page.getByText("Demande de lien reçue"))).not.toBe("");
  const again = await mailedLinks(smtp, email, ["requestLink"], /votre lien pour suivre/);
  expect(again.requestLink).not.toBe(first.requestLink);
  await page.goto(again.requestLink);
  await expect.poll(() => heading(page)).toBe(`Ma demande ${reference}`);
  // The link it replaces opens nothing.
  expect((await page.goto(first.requestLink))?.status()).toBe(404);
  await expect.poll(() => heading(page)).toBe("Lien de suivi invalide");
});
