import { E2E_ADMIN, E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { openAsAdmin, stamp } from "./admin-support";
import { expect, noJs, test } from "./fixtures";

// Several administrators: the list, adding, removing (with a confirmation), and `Mon compte`.
// The e2e administrator's own password is never changed: the new administrator changes theirs.

test("administrators: add one, who changes their password, then remove them", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const id = stamp(testInfo).toLowerCase();
  const email = `admin-${id}@example.fr`;
  const initial = `mot de passe initial ${id}`;
  const changed = `mot de passe changé ${id}`;

  await openAsAdmin(page, "/admin");
  await page
    .getByRole("navigation", { name: "Navigation de l'administration" })
    .getByRole("link", { name: "Administrateurs" })
    .click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole("heading", { name: "Administrateurs", level: 1 })).toBeVisible();
  const list = page.getByRole("region", { name: "Liste des administrateurs" });
  const me = list.getByRole("listitem").filter({ hasText: E2E_ADMIN.email });
  await expect(me).toContainText("Vous");
  await expect(me).toContainText(/Ajouté le \d{1,2} \S+ \d{4} à \d{2}:\d{2}/);
  // Nobody can remove themselves: there is no button for it.
  await expect(me.getByRole("link", { name: /Supprimer/ })).toHaveCount(0);

  // A taken e-mail is refused in French; the typed e-mail stays.
  const form = page.getByRole("form", { name: "Ajouter un administrateur" });
  await form.getByLabel("Email").fill(E2E_ADMIN.email.toUpperCase());
  await form.getByLabel("Mot de passe initial").fill(initial);
  await form.getByRole("button", { name: "Ajouter" }).click();
  await expect(
    page.getByText("Un administrateur utilise déjà cette adresse e-mail.").first(),
  ).toBeVisible();
  await expect(form.getByLabel("Email")).toHaveValue(new RegExp(`^${E2E_ADMIN.email}$`, "i"));

  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Mot de passe initial").fill(initial);
  await form.getByRole("button", { name: "Ajouter" }).click();
  await expect(page.getByText("Administrateur ajouté").last()).toBeVisible();
  const added = list.getByRole("listitem").filter({ hasText: email });
  await expect(added).toHaveCount(1);

  // The new administrator signs in twice (two browsers), and changes their password in one.
  const options = {
    baseURL: E2E_ADMIN_BASE_URL,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    javaScriptEnabled: !noJs(testInfo),
  };
  const contexts = await Promise.all([browser.newContext(options), browser.newContext(options)]);
  const [mine, other] = await Promise.all(contexts.map((c) => c.newPage()));
  // A password set by another administrator is changed at the first sign-in: `Mon compte` first.
  await openAsAdmin(other, "/admin/account", email, initial);
  await other.goto("/admin/offers");
  await expect(other).toHaveURL(/\/admin\/account$/);
  await openAsAdmin(mine, "/admin/account", email, initial);
  await expect(mine.getByRole("heading", { name: "Mon compte" })).toBeVisible();
  await expect(mine.getByText(`Connecté en tant que ${email}`).last()).toBeVisible();
  const account = mine.getByRole("form", { name: "Changer le mot de passe" });
  await account
    .getByLabel("Mot de passe actuel *", { exact: true })
    .fill("pas le bon mot de passe");
  await account.getByLabel("Nouveau mot de passe *", { exact: true }).fill(changed);
  await account.getByLabel("Confirmation du nouveau mot de passe *", { exact: true }).fill(changed);
  await account.getByRole("button", { name: "Changer le mot de passe" }).click();
  await expect(mine.getByText("Le mot de passe actuel est incorrect.").first()).toBeVisible();
  await account.getByLabel("Mot de passe actuel *", { exact: true }).fill(initial);
  await account.getByLabel("Nouveau mot de passe *", { exact: true }).fill(changed);
  await account.getByLabel("Confirmation du nouveau mot de passe *", { exact: true }).fill(changed);
  await account.getByRole("button", { name: "Changer le mot de passe" }).click();
  await expect(mine.getByText("Vos autres sessions ont été déconnectées").last()).toBeVisible();
  // This session stays; the other browser is signed out.
  await mine.goto("/admin");
  await expect(mine).toHaveURL(/\/admin$/);
  await other.goto("/admin");
  await expect(other).toHaveURL(/\/auth\?redirectTo=%2Fadmin$/);
  // The old password no longer works, the new one does.
  await openAsAdmin(other, "/admin", email, changed);

  // Remove the new administrator: confirmation first (a dialog, or a step without JavaScript).
  await page.goto("/admin/users");
  await added.getByRole("link", { name: `Supprimer l'administrateur ${email}` }).click();
  const question = "Êtes-vous sûr de vouloir supprimer cet administrateur ?";
  const confirm = noJs(testInfo)
    ? page.getByRole("region", { name: question })
    : page.getByRole("dialog", { name: question });
  await expect(confirm).toContainText(email);
  if (noJs(testInfo)) {
    await confirm.getByRole("link", { name: "Annuler" }).click();
  } else {
    await confirm.getByRole("button", { name: "Annuler" }).click();
  }
  await expect(confirm).toHaveCount(0);
  await expect(added).toHaveCount(1);
  await added.getByRole("link", { name: `Supprimer l'administrateur ${email}` }).click();
  await confirm.getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByText("Administrateur supprimé").last()).toBeVisible();
  await expect(added).toHaveCount(0);
  // Their sessions are gone with them.
  for (const p of [mine, other]) {
    await p.goto("/admin/account");
    await expect(p).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Faccount$/);
  }
  await Promise.all(contexts.map((c) => c.close()));
});
