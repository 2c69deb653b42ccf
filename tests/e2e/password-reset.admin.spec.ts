import { Secret, TOTP } from "otpauth";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "../system/harness/ports";
import { type ServerProcess, startServer } from "../system/harness/server-process";
import { expect, noJs, test } from "./fixtures";
import { mailedLinks } from "./mailed-links";

// `Mot de passe oublié ?` (issue 20) in the browser, with and without JavaScript: the link comes
// by mail (a real SMTP server on loopback, so this spec runs its own built server), the policy
// refuses a common password, the new one is set, the session opened before is over, and the
// account's second factor is still asked at the next sign-in.

const ADMIN = { email: "admin@example.fr", password: "le mot de passe d'avant l'oubli" };
const NEW_PASSWORD = "la phrase choisie après l'oubli";

let smtp: TestSmtpServer;
let server: ServerProcess;

test.beforeAll(async () => {
  // A built server of its own: its start (migrations, demo data) is slow on a busy machine.
  test.setTimeout(180_000);
  smtp = await startTestSmtpServer(await findFreePort());
  server = await startServer({
    port: await findFreePort(),
    env: {
      SMTP_URL: smtp.url,
      NOTIFY_EMAIL: "ventes@example.fr",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
    },
  }).ready();
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

function codeFor(key: string, time: number) {
  return new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({
    timestamp: time,
  });
}

test("forgotten password: a mailed link, the policy, every session ended, the code still asked", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const base = server.base;

  // The account enrols a second factor, in a browser that stays signed in.
  const before = await browser.newContext({
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    javaScriptEnabled: !noJs(testInfo),
  });
  const old = await before.newPage();
  await old.goto(`${base}/admin/account/2fa`);
  await old.getByLabel("Email").fill(ADMIN.email);
  await old.getByLabel("Mot de passe").fill(ADMIN.password);
  await old.getByRole("button", { name: "Se connecter" }).click();
  await expect(old).toHaveURL(/\/admin\/account\/2fa$/);
  const shown = (await old.getByTestId("totp-key").textContent()) ?? "";
  const key = shown.replace(/^Clé : /, "").replace(/\s/g, "");
  const enrolledAt = Date.now();
  await old.getByLabel("Mot de passe actuel").fill(ADMIN.password);
  await old.getByLabel("Code à 6 chiffres").fill(codeFor(key, enrolledAt));
  await old.getByRole("button", { name: "Activer" }).click();
  await expect(old.getByRole("heading", { name: "Codes de secours" })).toBeVisible();
  await old.getByRole("link", { name: "J'ai noté mes codes" }).click();
  await expect(old).toHaveURL(/\/admin\/account$/);

  // Another browser: `Mot de passe oublié ?` from the sign-in page.
  await page.goto(`${base}/auth`);
  await page.getByRole("link", { name: "Mot de passe oublié ?" }).click();
  await expect(page).toHaveURL(`${base}/auth/mot-de-passe-oublie`);
  await expect(page.getByRole("heading", { name: "Mot de passe oublié" })).toBeVisible();
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByRole("button", { name: "Recevoir le lien" }).click();
  await expect(page.getByText(/^Si un compte existe pour cette adresse/)).toBeVisible();

  const { passwordReset: link } = await mailedLinks(
    smtp,
    ADMIN.email,
    ["passwordReset"],
    /^Réinitialisation de votre mot de passe$/,
  );

  await page.goto(link);
  const form = page.getByRole("form", { name: "Nouveau mot de passe" });
  await expect(form).toBeVisible();
  // A common password is refused, the link still good.
  await form.getByLabel("Nouveau mot de passe", { exact: true }).fill("Password1234");
  await form.getByLabel("Confirmer le nouveau mot de passe").fill("Password1234");
  await form.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
  await expect(page.getByText(/les plus courants ou déjà divulgués/).first()).toBeVisible();
  await form.getByLabel("Nouveau mot de passe", { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel("Confirmer le nouveau mot de passe").fill(NEW_PASSWORD);
  await form.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
  await expect(page).toHaveURL(`${base}/auth`);
  await expect(page.getByText("Mot de passe modifié").first()).toBeVisible();

  // Signed in nowhere: the new password, then the code of the next 30-second step.
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Mot de passe").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Se connecter" }).click();
  const step = page.getByRole("form", { name: "Double authentification" });
  await expect(step).toBeVisible();
  await step.getByLabel("Code à 6 chiffres").fill(codeFor(key, enrolledAt + 30_000));
  await step.getByRole("button", { name: "Vérifier" }).click();
  await expect(page.getByText("Connexion réussie").first()).toBeVisible();
  await expect(page).toHaveURL(`${base}/admin`);

  // The session opened before the reset is over.
  await old.goto(`${base}/admin/account`);
  await expect(old).toHaveURL(/\/auth\?redirectTo=/);
  await before.close();

  // The link is spent: a clear message and the way to ask again.
  await page.goto(link);
  await expect(page.getByText("Lien expiré ou déjà utilisé")).toBeVisible();
  await page.getByRole("link", { name: "Demander un nouveau lien" }).click();
  await expect(page).toHaveURL(`${base}/auth/mot-de-passe-oublie`);
});
