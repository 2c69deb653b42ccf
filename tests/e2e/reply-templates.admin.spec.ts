import { E2E_ADMIN, E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { openAsAdmin, stamp } from "./admin-support";
import { expect, test } from "./fixtures";
import { postRequest, templateText } from "./reply-template-support";

// `Modèles de réponse` (issue 40), with and without JavaScript: a salesperson writes a template on
// /admin/modeles (a title already taken is refused on its field), opens a request, starts the
// message from it with `Utiliser ce modèle` (placeholders replaced by the server), sends it, sees
// it in the conversation, then deletes the template after the confirmation. The server's
// database is shared: each test's template and request carry its own stamp.

test("a template written on Modèles de réponse starts the message to the buyer", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const mark = stamp(testInfo);
  const title = `Proposition-${mark}`;
  const text = templateText(mark);
  const name = `Modele ${mark.replace(/[^a-z0-9]/gi, "")}`;
  const { reference, offerTitle } = await postRequest(page, E2E_ADMIN_BASE_URL, name);

  await openAsAdmin(page, "/admin/modeles");
  await expect(page.getByRole("heading", { name: "Modèles de réponse", level: 1 })).toBeVisible();
  // The placeholders are documented, and the demo's templates are there.
  await expect(page.getByText("{reference}", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Accusé de réception", level: 3 })).toBeVisible();

  const create = page.getByRole("form", { name: "Nouveau modèle" });
  await create.getByLabel("Titre *").fill(title);
  await create.getByLabel("Texte *").fill(text.body);
  await create.getByRole("button", { name: "Créer le modèle" }).click();
  await expect(page.getByText("Modèle créé").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: title, level: 3 })).toBeVisible();
  // The same title in capitals: refused on its field, what was typed kept.
  await create.getByLabel("Titre *").fill(title.toUpperCase());
  await create.getByLabel("Texte *").fill("Un autre texte.");
  await create.getByRole("button", { name: "Créer le modèle" }).click();
  await expect(create.getByText("Un modèle porte déjà ce titre.")).toBeVisible();
  await expect(create.getByLabel("Titre *")).toHaveValue(title.toUpperCase());

  await page.goto(`/admin/contacts?q=${encodeURIComponent(name.split(" ")[1])}`);
  await page.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/admin\/contacts\/\d+$/);
  const requestUrl = page.url();
  const picker = page.getByRole("form", { name: "Partir d'un modèle de réponse" });
  await picker.getByLabel("Modèle de réponse").selectOption({ label: title });
  await picker.getByRole("button", { name: "Utiliser ce modèle" }).click();
  await expect(page).toHaveURL(/\?modele=\d+$/);

  const form = page.getByRole("form", { name: "Écrire au client" });
  const expected = text.applied({ name, reference, offer: offerTitle, email: E2E_ADMIN.email });
  await expect(form.getByLabel("Message")).toHaveValue(expected);
  await expect(form.getByLabel("Objet")).toHaveValue(`Votre demande ${reference}`);
  await expect(picker.getByLabel("Modèle de réponse")).toHaveValue(/^\d+$/);
  await form.getByRole("button", { name: "Envoyer au client" }).click();
  await expect(page).toHaveURL(requestUrl);
  await expect(page.getByText("Message envoyé").first()).toBeVisible();
  const conversation = page.getByRole("list", { name: "Échanges avec le client" });
  await expect(conversation.getByRole("listitem")).toHaveCount(1);
  await expect(conversation).toContainText(`Votre demande ${reference} (${offerTitle}) est prête`);
  await expect(conversation).toContainText(`${E2E_ADMIN.email} à `);
  // The form is empty again, ready for the next message.
  await expect(form.getByLabel("Message")).toHaveValue("");

  // The template goes once the deletion is confirmed; the message sent stays as it was.
  await page.goto("/admin/modeles");
  await page.getByRole("link", { name: `Supprimer le modèle ${title}` }).click();
  await expect(
    page.getByRole("heading", { name: "Supprimer ce modèle de réponse ?" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Supprimer", exact: true }).click();
  await expect(page.getByText("Modèle supprimé").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: title, level: 3 })).toHaveCount(0);
  await page.goto(requestUrl);
  await expect(conversation).toContainText(`Votre demande ${reference} (${offerTitle}) est prête`);
});
