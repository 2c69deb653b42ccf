import { openAsAdmin, stamp } from "./admin-support";
import { expect, noJs, test } from "./fixtures";

// The two admin pages that keep a list of names (components/admin/reference-list.tsx): add one, a
// second time refused in French beside its field, then removed after its confirmation (a dialog
// with JavaScript, a step of the page without). What a test adds it removes.

const PAGES = [
  {
    path: "/admin/datacenters",
    heading: "Datacenters",
    list: "Liste des datacenters",
    form: "Ajouter un datacenter",
    field: "Nom *",
    typed: (id: string) => `DC ${id}`,
    shown: (id: string) => `DC ${id}`,
    remove: (id: string) => `Supprimer le datacenter DC ${id}`,
    added: "Datacenter ajouté",
    duplicate: "Un datacenter porte déjà ce nom.",
    confirm: "Êtes-vous sûr de vouloir supprimer ce datacenter ?",
    removed: "Datacenter supprimé",
  },
  {
    path: "/admin/recherche",
    heading: "Synonymes de la recherche",
    list: "Groupes de synonymes",
    form: "Ajouter des synonymes",
    field: "Expressions *",
    typed: (id: string) => `zz ${id}  =  yy ${id}`,
    shown: (id: string) => `zz ${id} = yy ${id}`,
    remove: (id: string) => `Supprimer les synonymes zz ${id} = yy ${id}`,
    added: "Synonymes ajoutés",
    duplicate: "Ce groupe de synonymes existe déjà.",
    confirm: "Êtes-vous sûr de vouloir supprimer ces synonymes ?",
    removed: "Synonymes supprimés",
  },
];

for (const p of PAGES) {
  test(`${p.heading}: add, refuse the same again, remove after confirming`, async ({
    page,
  }, testInfo) => {
    const id = stamp(testInfo).toLowerCase();
    await openAsAdmin(page, p.path);
    await expect(page.getByRole("heading", { name: p.heading, level: 1 })).toBeVisible();
    const list = page.getByRole("list", { name: p.list });
    const form = page.getByRole("form", { name: p.form });

    await form.getByLabel(p.field).fill(p.typed(id));
    await form.getByRole("button", { name: "Ajouter" }).click();
    await expect(page.getByText(p.added).first()).toBeVisible();
    const row = list.getByRole("listitem").filter({ hasText: p.shown(id) });
    await expect(row).toHaveCount(1);

    await form.getByLabel(p.field).fill(p.typed(id));
    await form.getByRole("button", { name: "Ajouter" }).click();
    await expect(page.getByText(p.duplicate).first()).toBeVisible();
    await expect(form.getByLabel(p.field)).toHaveAttribute("aria-invalid", "true");
    await expect(row).toHaveCount(1);

    await row.getByRole("link", { name: p.remove(id) }).click();
    const question = noJs(testInfo)
      ? page.getByRole("region", { name: p.confirm })
      : page.getByRole("dialog", { name: p.confirm });
    await expect(question).toBeVisible();
    await question.getByRole("button", { name: "Supprimer", exact: true }).click();
    await expect(page.getByText(p.removed).first()).toBeVisible();
    await expect(row).toHaveCount(0);
  });
}
