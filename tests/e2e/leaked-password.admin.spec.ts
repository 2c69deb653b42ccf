import { request as httpRequest } from "node:http";
import { Secret, TOTP } from "otpauth";
import { E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { openAsAdmin, signIn, stamp } from "./admin-support";
import { expect, test } from "./fixtures";
import { NO_JS } from "./tags";

// Issue 28, "a leaked password locks the owner out", in the browser: the owner enrols a second
// factor; someone who has the password sends 20 wrong codes from four other client addresses
// (Node requests bound to 127.0.0.2–5: Linux routes 127.0.0.0/8 to lo, and the server trusts no
// proxy); the owner still signs in from their own browser with the right code, and the journal
// shows the warning sent to the account. The admin server of this suite has no SMTP server: the
// mail itself, through the outbox to a real SMTP server, is checked by
// tests/integration/leaked-password.test.ts.
//
// Plain forms all along: run once, without JavaScript (two-factor.admin.spec.ts covers both).

const WRONG = "AAAA-AAAA-AAAA-AAAA";

function codeFor(key: string, time: number) {
  return new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({
    timestamp: time,
  });
}

/** A form post to the admin server from `localAddress`, as a script would send it. */
function post(
  localAddress: string,
  path: string,
  form: Record<string, string>,
  cookie?: string,
): Promise<{ status: number; cookie?: string }> {
  const base = new URL(E2E_ADMIN_BASE_URL);
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        localAddress,
        method: "POST",
        path,
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          Origin: base.origin,
          ...(cookie ? { Cookie: cookie } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          const session = (res.headers["set-cookie"] ?? [])
            .map((c) => /^(admin_session=[^;]+)/.exec(c)?.[1])
            .find(Boolean);
          resolve({ status: res.statusCode ?? 0, cookie: session });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test(`a leaked password: 20 wrong codes from elsewhere, the owner signs in from their browser ${NO_JS}`, async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const id = stamp(testInfo).toLowerCase();
  const email = `proprietaire-${id}@example.fr`;
  const initial = `mot de passe initial ${id}`;
  const password = `mot de passe du proprietaire ${id}`;

  // An Administrateur adds the owner's account.
  await openAsAdmin(page, "/admin/users");
  const form = page.getByRole("form", { name: "Ajouter un administrateur" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Mot de passe initial").fill(initial);
  await form.getByRole("button", { name: "Ajouter" }).click();
  await expect(page.getByText("Administrateur ajouté").last()).toBeVisible();

  // The owner's browser: their own password, then the second factor (the password asked again).
  const context = await browser.newContext({
    baseURL: E2E_ADMIN_BASE_URL,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    javaScriptEnabled: false,
  });
  const own = await context.newPage();
  await openAsAdmin(own, "/admin/account", email, initial);
  const change = own.getByRole("form", { name: "Changer le mot de passe" });
  await change.getByLabel("Mot de passe actuel *", { exact: true }).fill(initial);
  await change.getByLabel("Nouveau mot de passe *", { exact: true }).fill(password);
  await change.getByLabel("Confirmation du nouveau mot de passe *", { exact: true }).fill(password);
  await change.getByRole("button", { name: "Changer le mot de passe" }).click();
  await own.getByRole("link", { name: "Activer la double authentification" }).click();
  const shown = (await own.getByTestId("totp-key").textContent()) ?? "";
  const key = shown.replace(/^Clé : /, "").replace(/\s/g, "");
  const enrolledAt = Date.now();
  await own.getByLabel("Mot de passe actuel").fill(password);
  await own.getByLabel("Code à 6 chiffres").fill(codeFor(key, enrolledAt));
  await own.getByRole("button", { name: "Activer" }).click();
  await expect(own.getByRole("heading", { name: "Codes de secours" })).toBeVisible();
  await own.getByRole("button", { name: "Déconnexion" }).click();
  await expect(own.getByText("Déconnexion réussie").first()).toBeVisible();

  // Someone with the password, from four other addresses: the right password, then 5 wrong codes
  // each. The account's allowance for browsers it does not know runs out after 10.
  const statuses: number[] = [];
  for (const address of ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]) {
    const step = await post(address, "/auth", { email, password });
    expect(step.status).toBe(302);
    expect(step.cookie).toBeDefined();
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await post(address, "/auth", { intent: "code", code: WRONG }, step.cookie)).status,
      );
    }
  }
  expect(statuses).toEqual([...Array(10).fill(401), ...Array(10).fill(429)]);

  // The owner, from their usual browser: password, then the right code; in.
  await own.goto("/admin/account");
  await expect(own).toHaveURL(/\/auth\?redirectTo=/);
  await signIn(own, password, email);
  const step = own.getByRole("form", { name: "Double authentification" });
  await expect(step).toBeVisible();
  // A time step after the enrolment's (each step is accepted once).
  await step
    .getByLabel("Code à 6 chiffres")
    .fill(codeFor(key, Math.max(Date.now(), enrolledAt + 30_000)));
  await step.getByRole("button", { name: "Vérifier" }).click();
  await expect(own.getByText("Connexion réussie").first()).toBeVisible();
  await expect(own).toHaveURL(/\/admin\/account$/);

  // The account was warned once (the mail is queued in the outbox), and the journal says so.
  await own.goto(
    `/admin/journal?${new URLSearchParams({ account: email, action: "second-factor-alert" })}`,
  );
  await expect(own.getByText("1 entrée", { exact: true })).toBeVisible();
  const alert = own.getByRole("table", { name: "Entrées du journal" }).getByRole("row").nth(1);
  // The 5th wrong code came from the first address.
  await expect(alert).toContainText("Alerte envoyée : codes refusés après le bon mot de passe");
  await expect(alert).toContainText("127.0.0.2");
  await context.close();
});
