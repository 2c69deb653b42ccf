import { E2E_ADMIN, E2E_ADMIN_BASE_URL } from "../../playwright.config";
import { expect, type FirefoxPage, pressOn, test, textOf, typeInto } from "./firefox";
import { postRequest, templateText } from "./reply-template-support";

// `Modèles de réponse` (issue 40) in Firefox ESR, with and without JavaScript, by the keyboard: a
// salesperson writes a template, starts a request's message from it (`Utiliser ce modèle`, the
// placeholders replaced by the server), sends it and sees it in the conversation. On the
// administrator specs' server (demo data, shared: the template and the request carry the
// project's stamp). The request is posted from Chromium's page, as a visitor's form would.

const base = E2E_ADMIN_BASE_URL;

async function signIn(page: FirefoxPage, path: string) {
  await page.goto(`${base}${path}`);
  await expect.poll(() => page.url()).toContain("/auth?redirectTo=");
  await typeInto(page.getByLabel("Email"), E2E_ADMIN.email);
  await typeInto(page.getByLabel("Mot de passe"), E2E_ADMIN.password);
  await pressOn(page.getByRole("button", { name: "Se connecter" }));
  await expect.poll(() => page.url()).toBe(`${base}${path}`);
}

test("a template written on Modèles de réponse starts the message to the buyer", async ({
  page: visitor,
  firefoxPage: page,
}, testInfo) => {
  test.setTimeout(120_000);
  const mark = `${testInfo.project.name}-${Date.now()}`;
  // No space: the select is chosen by typing the title (a space would open its list).
  const title = `Proposition-${mark}`;
  const text = templateText(mark);
  const name = `Modele ${mark.replace(/[^a-z0-9]/gi, "")}`;
  const { reference, offerTitle } = await postRequest(visitor, base, name);

  await signIn(page, "/admin/modeles");
  const create = page.getByRole("form", { name: "Nouveau modèle" });
  await typeInto(create.getByLabel("Titre *"), title);
  await typeInto(create.getByLabel("Texte *"), text.body);
  await pressOn(create.getByRole("button", { name: "Créer le modèle" }));
  await expect.poll(() => textOf(page.getByText("Modèle créé"))).not.toBe("");
  await expect.poll(() => textOf(page.getByRole("heading", { name: title, level: 3 }))).toBe(title);

  await page.goto(`${base}/admin/contacts?q=${name.split(" ")[1]}`);
  await pressOn(page.getByRole("link", { name }));
  await expect.poll(() => page.url()).toMatch(/\/admin\/contacts\/\d+$/);
  const requestUrl = page.url();
  const picker = page.getByRole("form", { name: "Partir d'un modèle de réponse" });
  const select = picker.getByLabel("Modèle de réponse");
  await expect.poll(() => textOf(select)).toContain(title);
  await select.focus();
  await page.keyboard.type(title);
  await expect
    .poll(() => select.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text))
    .toBe(title);
  await pressOn(picker.getByRole("button", { name: "Utiliser ce modèle" }));
  await expect.poll(() => page.url()).toMatch(/\?modele=\d+$/);

  const form = page.getByRole("form", { name: "Écrire au client" });
  const expected = text.applied({ name, reference, offer: offerTitle, email: E2E_ADMIN.email });
  await expect.poll(() => form.getByLabel("Message").inputValue()).toBe(expected);
  expect(await form.getByLabel("Objet").inputValue()).toBe(`Votre demande ${reference}`);
  await pressOn(form.getByRole("button", { name: "Envoyer au client" }));
  await expect.poll(() => page.url()).toBe(requestUrl);
  const conversation = page.getByRole("list", { name: "Échanges avec le client" });
  await expect
    .poll(() => textOf(conversation))
    .toContain(`Votre demande ${reference} (${offerTitle}) est prête`);
  await expect.poll(() => textOf(page.getByText("Message envoyé"))).not.toBe("");
  expect(await form.getByLabel("Message").inputValue()).toBe("");

  // `À relancer le` (issue 40): today in Firefox's own date field (its sub-fields take no typed
  // date reliably across locales: the value is set, the browser posts the form), then the request
  // waits in Mes relances (nobody owns it: everyone's list).
  const field = page.getByLabel("À relancer le");
  const [year, month, day] = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" })
    .format(new Date())
    .split("-");
  await field.evaluate((input, value) => {
    (input as HTMLInputElement).value = value;
  }, `${year}-${month}-${day}`);
  await expect.poll(() => field.inputValue()).toBe(`${year}-${month}-${day}`);
  await pressOn(page.getByRole("button", { name: "Enregistrer la relance" }));
  await expect.poll(() => textOf(page.getByText("Relance enregistrée"))).not.toBe("");
  // By its link: a new document load could cut the page's own requests short (Firefox reports it).
  await pressOn(page.getByRole("link", { name: "Mes relances" }));
  await expect.poll(() => page.url()).toBe(`${base}/admin/relances`);
  await expect
    .poll(() => textOf(page.getByRole("list", { name: "Demandes sans responsable" })))
    .toContain(reference);
});
