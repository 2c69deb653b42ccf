import { Secret, TOTP } from "otpauth";
import { E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { openAsAdmin, signIn, stamp } from "./admin-support";
import { expect, noJs, test } from "./fixtures";

// The second factor (issue 20), in the browser: an account enrols with a code computed from the
// key the page shows, then signs in with a 6-digit code, then with a recovery code. The e2e
// administrator stays without a second factor: the other specs sign in with a password only.

function codeFor(key: string, time: number) {
  const totp = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 });
  return totp.generate({ timestamp: time });
}

test("second factor: enrol from the displayed key, sign in with a code and with a recovery code", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const id = stamp(testInfo).toLowerCase();
  const email = `totp-${id}@example.fr`;
  const initial = `mot de passe initial ${id}`;
  const password = `mot de passe choisi ${id}`;

  // An Administrateur adds the account.
  await openAsAdmin(page, "/admin/users");
  const form = page.getByRole("form", { name: "Ajouter un administrateur" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Mot de passe initial").fill(initial);
  await form.getByRole("button", { name: "Ajouter" }).click();
  await expect(page.getByText("Administrateur ajouté").last()).toBeVisible();

  const context = await browser.newContext({
    baseURL: E2E_ADMIN_BASE_URL,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    javaScriptEnabled: !noJs(testInfo),
  });
  const own = await context.newPage();
  // A password set by another administrator is changed first (Mon compte), then the second factor.
  await openAsAdmin(own, "/admin/account", email, initial);
  const change = own.getByRole("form", { name: "Changer le mot de passe" });
  await change.getByLabel("Mot de passe actuel *", { exact: true }).fill(initial);
  await change.getByLabel("Nouveau mot de passe *", { exact: true }).fill(password);
  await change.getByLabel("Confirmation du nouveau mot de passe *", { exact: true }).fill(password);
  await change.getByRole("button", { name: "Changer le mot de passe" }).click();
  await expect(own.getByText("Vos autres sessions ont été déconnectées").last()).toBeVisible();
  await own.getByRole("link", { name: "Activer la double authentification" }).click();
  await expect(own).toHaveURL(/\/admin\/account\/2fa$/);
  await expect(
    own.getByRole("img", { name: "QR code de la double authentification" }),
  ).toBeVisible();
  const shown = (await own.getByTestId("totp-key").textContent()) ?? "";
  const key = shown.replace(/^Clé : /, "").replace(/\s/g, "");
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  const enrolledAt = Date.now();
  // The password again (issue 28), then the code.
  await own.getByLabel("Mot de passe actuel").fill(password);
  await own.getByLabel("Code à 6 chiffres").fill(codeFor(key, enrolledAt));
  await own.getByRole("button", { name: "Activer" }).click();
  await expect(own.getByRole("heading", { name: "Codes de secours" })).toBeVisible();
  const codes = await own
    .getByRole("list", { name: "Codes de secours" })
    .getByRole("listitem")
    .allTextContents();
  expect(codes).toHaveLength(10);
  await own.getByRole("link", { name: "J'ai noté mes codes" }).click();
  await expect(own.getByText(/Codes de secours restants : 10/)).toBeVisible();

  // Sign out, then in: password, then the code of the next 30-second step (each step works once).
  const signOut = async () => {
    await own.getByRole("button", { name: "Déconnexion" }).click();
    await expect(own.getByText("Déconnexion réussie").first()).toBeVisible();
  };
  await signOut();
  await own.goto("/admin/account");
  await signIn(own, password, email);
  const step = own.getByRole("form", { name: "Double authentification" });
  await expect(step).toBeVisible();
  await step.getByLabel("Code à 6 chiffres").fill(codeFor(key, enrolledAt + 30_000));
  await step.getByRole("button", { name: "Vérifier" }).click();
  await expect(own.getByText("Connexion réussie").first()).toBeVisible();
  await expect(own).toHaveURL(/\/admin\/account$/);

  // And with a recovery code, once.
  await signOut();
  await own.goto("/admin/account");
  await signIn(own, password, email);
  await step.getByLabel("Code à 6 chiffres").fill(codes[0]);
  await step.getByRole("button", { name: "Vérifier" }).click();
  await expect(own.getByText("Connexion réussie").first()).toBeVisible();
  await expect(own.getByText(/Codes de secours restants : 9/)).toBeVisible();
  await context.close();
});
