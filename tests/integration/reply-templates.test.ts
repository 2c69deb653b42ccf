import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { applyReplyTemplate } from "../../app/features/conversation/reply-template-form";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import type { Role } from "../../app/features/accounts/roles";
import {
  auditJournal,
  replyTemplates,
  requestMessages,
  users,
} from "../../app/platform/schema.server";
import * as requestPage from "../../app/routes/admin/contact-request";
import * as templatesPage from "../../app/routes/admin/reply-templates";
import * as unattachedPage from "../../app/routes/admin/unattached-messages";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";

// `Modèles de réponse` (issue 40): the texts the sales team keeps at /admin/modeles (created,
// changed, deleted after a confirmation, each journaled; titles unique whatever their case), and
// the one a salesperson picks on a request's page (`?modele=ID`), its placeholders replaced by the
// loader. And `Non rattachés`: a stray message is deleted only once the deletion is confirmed.
vi.hoisted(() => {
  // Over plain HTTP: an account without a second factor may act (issue 28 asks it over HTTPS).
  process.env.SITE_URL = "http://www.example.fr";
});

const { database, sessionCookieFor, snapshotFingerprint } = useAdminSuite();
const PATH = "/admin/modeles";

describe(`reply templates (${testDatabaseKind})`, () => {
  const cookies = {} as Record<Role, string>;
  const emails = {} as Record<Role, string>;

  beforeEach(async () => {
    for (const role of ["admin", "sales", "catalogue"] as const) {
      const email = `${role}@example.fr`;
      const [user] = await database.db
        .insert(users)
        .values({ email, passwordHash: "not used: the session is made directly", role })
        .returning({ id: users.id });
      cookies[role] = await sessionCookieFor(user.id);
      emails[role] = email;
    }
  });

  const post = (form: Record<string, string>, role: Role | null = "sales") =>
    call(
      templatesPage.action,
      makeRequest(PATH, { cookie: role ? cookies[role] : undefined, form }),
    );
  const open = (query = "", role: Role | null = "sales") =>
    call(
      templatesPage.loader,
      makeRequest(`${PATH}${query}`, { cookie: role ? cookies[role] : undefined }),
    );
  const stored = () => database.db.select().from(replyTemplates).orderBy(replyTemplates.id);
  const journal = () => database.db.select().from(auditJournal).orderBy(auditJournal.id);

  it("lets a salesperson create, change and delete a template, each journaled", async () => {
    const created = await post({
      intent: "create",
      title: "  Relance devis  ",
      body: "  Bonjour {nom},\navez-vous pu lire notre devis ?  ",
    });
    expect(created.status).toBe(302);
    expect(created.location).toBe(PATH);
    expect(created.headers.get("set-cookie")).toContain("flash=replyTemplateCreated");
    const [row] = await stored();
    // Trimmed, as the shared schema says.
    expect(row).toMatchObject({
      title: "Relance devis",
      body: "Bonjour {nom},\navez-vous pu lire notre devis ?",
    });
    const listed = await open();
    expect(listed.status).toBe(200);
    expect(listed.data).toMatchObject({
      templates: [{ id: row.id, title: "Relance devis" }],
      pendingDelete: null,
    });

    const updated = await post({
      intent: "update",
      id: String(row.id),
      title: "Relance du devis",
      body: "Bonjour {nom}, un rappel.",
    });
    expect(updated.status).toBe(302);
    expect(updated.headers.get("set-cookie")).toContain("flash=replyTemplateUpdated");
    const [changed] = await stored();
    expect(changed).toMatchObject({ title: "Relance du devis", body: "Bonjour {nom}, un rappel." });
    expect(changed.updatedAt.getTime()).toBeGreaterThanOrEqual(row.updatedAt.getTime());

    // A bare delete asks first: the page's confirmation step, nothing deleted.
    const asked = await post({ intent: "delete", id: String(row.id) });
    expect(asked.status).toBe(302);
    expect(asked.location).toBe(`${PATH}?delete=${row.id}`);
    expect(await stored()).toHaveLength(1);
    const confirmation = await open(`?delete=${row.id}`);
    expect(confirmation.data).toMatchObject({
      pendingDelete: { id: row.id, title: "Relance du devis" },
    });
    const deleted = await post({ intent: "delete", id: String(row.id), confirm: "yes" });
    expect(deleted.status).toBe(302);
    expect(deleted.location).toBe(PATH);
    expect(deleted.headers.get("set-cookie")).toContain("flash=replyTemplateDeleted");
    expect(await stored()).toEqual([]);
    // Deleted once: a second confirmation finds nothing.
    const again = await post({ intent: "delete", id: String(row.id), confirm: "yes" });
    expect(again.status).toBe(404);
    expect((await open(`?delete=${row.id}`)).data).toMatchObject({
      pendingDelete: null,
      deleteMissing: true,
    });

    expect(
      (await journal()).map((entry) => [entry.action, entry.actorEmail, entry.target]),
    ).toEqual([
      ["reply-template-created", emails.sales, `modèle ${row.id} « Relance devis »`],
      ["reply-template-updated", emails.sales, `modèle ${row.id} « Relance du devis »`],
      ["reply-template-deleted", emails.sales, `modèle ${row.id} « Relance du devis »`],
    ]);
  });

  it("refuses an empty or too long title or text, in French, keeping what was typed (400)", async () => {
    const cases: [Record<string, string>, "title" | "body", RegExp][] = [
      [{ title: "   ", body: "Bonjour" }, "title", /^Indiquez le titre du modèle\.$/],
      [{ title: "x".repeat(81), body: "Bonjour" }, "title", /80 caractères au plus/],
      [{ title: "Deux\nlignes", body: "Bonjour" }, "title", /une ligne/],
      [{ title: "Vide", body: " \n " }, "body", /^Écrivez le texte du modèle\.$/],
      [{ title: "Long", body: "x".repeat(5_001) }, "body", /5000 caractères au plus/],
    ];
    for (const [fields, field, message] of cases) {
      const refused = await post({ intent: "create", ...fields });
      expect(refused.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      const data = refused.data as {
        error: string;
        fieldErrors: Record<string, string>;
        values: Record<string, string>;
      };
      expect(data.error).toBe("Modèle non créé");
      expect(data.fieldErrors[field]).toMatch(message);
      expect(data.values).toMatchObject(fields);
    }
    // At the limits exactly: accepted.
    const longest = await post({
      intent: "create",
      title: "x".repeat(80),
      body: "y".repeat(5_000),
    });
    expect(longest.status).toBe(302);
    expect(await stored()).toHaveLength(1);
  });

  it("answers a title already taken, whatever its case, with the field's message (409), never a 500", async () => {
    expect((await post({ intent: "create", title: "Accusé de réception", body: "A" })).status).toBe(
      302,
    );
    expect((await post({ intent: "create", title: "Relance", body: "B" })).status).toBe(302);
    const [first, second] = await stored();

    const duplicate = await post({ intent: "create", title: "ACCUSÉ DE RÉCEPTION", body: "C" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.data).toMatchObject({
      intent: "create",
      fieldErrors: { title: "Un modèle porte déjà ce titre." },
      values: { title: "ACCUSÉ DE RÉCEPTION", body: "C" },
    });
    // Renaming one to the other's title: the same answer, for that template's form.
    const renamed = await post({
      intent: "update",
      id: String(second.id),
      title: " accusé de réception ",
      body: "B",
    });
    expect(renamed.status).toBe(409);
    expect(renamed.data).toMatchObject({
      intent: "update",
      fieldErrors: { title: "Un modèle porte déjà ce titre." },
      values: { id: String(second.id) },
    });
    // Its own title in another case is no conflict.
    const recased = await post({
      intent: "update",
      id: String(first.id),
      title: "Accusé De Réception",
      body: "A",
    });
    expect(recased.status).toBe(302);
    expect((await stored()).map((t) => t.title)).toEqual(["Accusé De Réception", "Relance"]);
    // A template deleted meanwhile: 404, nothing created in its place.
    const gone = await post({ intent: "update", id: "999999", title: "Autre", body: "D" });
    expect(gone.status).toBe(404);
    expect(await stored()).toHaveLength(2);
  });

  it("is the Administrateur's and the Commercial's: Catalogue and the signed-out are refused", async () => {
    await post({ intent: "create", title: "Existant", body: "Texte" });
    const [row] = await stored();
    expect((await open("", "admin")).status).toBe(200);
    expect(
      (await post({ intent: "create", title: "De l'admin", body: "Texte" }, "admin")).status,
    ).toBe(302);

    const before = await snapshotFingerprint();
    const forms: Record<string, string>[] = [
      { intent: "create", title: "Intrus", body: "Texte" },
      { intent: "update", id: String(row.id), title: "Détourné", body: "Texte" },
      { intent: "delete", id: String(row.id), confirm: "yes" },
    ];
    const catalogue = await open("", "catalogue");
    expect(catalogue.status).toBe(403);
    expect(JSON.stringify(catalogue.data)).not.toContain("Existant");
    const signedOut = await open("", null);
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toMatch(/^\/auth\?redirectTo=/);
    for (const form of forms) {
      expect((await post(form, "catalogue")).status).toBe(403);
      expect((await post(form, null)).status).toBe(401);
    }
    expect(await snapshotFingerprint()).toEqual(before);
    // And the navigation shows the page to those who may open it.
    const layout = await import("../../app/routes/admin/layout");
    const navOf = async (role: Role) =>
      (
        (await call(layout.loader, makeRequest("/admin", { cookie: cookies[role] }))).data as {
          nav: { to: string }[];
        }
      ).nav.map((item) => item.to);
    expect(await navOf("sales")).toContain(PATH);
    expect(await navOf("admin")).toContain(PATH);
    expect(await navOf("catalogue")).not.toContain(PATH);
  });

  it("starts the request page's message from the template `?modele=` names, placeholders replaced", async () => {
    const [{ id: offerId }] = await insertOffers(database.db, [
      buildOffer(1, { title: "Xeon Essentiel", reference: "DED-1", price: "100.00" }),
    ]);
    const about = await createContactRequest(
      {
        name: "Jeanne Achat",
        email: "jeanne@example.fr",
        phone: null,
        message: "Devis",
        offer: offerId,
      },
      database.db,
    );
    const general = await createContactRequest(
      {
        name: "Paul {offre}",
        email: "paul@example.fr",
        phone: null,
        message: "Bonjour",
        offer: null,
      },
      database.db,
    );
    await post({
      intent: "create",
      title: "Accusé de réception",
      body: "Bonjour {nom},\nVotre demande {reference} ({offre}) est bien reçue.\n{signature}\n{inconnu}",
    });
    await post({ intent: "create", title: "Relance", body: "Un rappel, {nom}." });
    const [template, other] = await stored();

    const page = async (id: number, query: string, role: Role = "sales") => {
      const outcome = await call(
        requestPage.loader,
        makeRequest(`/admin/contacts/${id}${query}`, { cookie: cookies[role] }),
        undefined,
        { id: String(id) },
      );
      expect(outcome.status).toBe(200);
      return (
        outcome.data as {
          conversation: {
            templates: {
              options: { id: number; title: string }[];
              chosenId: number | null;
              body: string | null;
            };
          };
        }
      ).conversation.templates;
    };

    const chosen = await page(about.id, `?modele=${template.id}`);
    expect(chosen.options).toEqual([
      { id: template.id, title: "Accusé de réception" },
      { id: other.id, title: "Relance" },
    ]);
    expect(chosen.chosenId).toBe(template.id);
    expect(chosen.body).toBe(
      `Bonjour Jeanne Achat,\nVotre demande ${about.reference} (Xeon Essentiel) est bien reçue.\n${emails.sales}\n{inconnu}`,
    );
    // A general request: `votre demande`; the author's own address; a name is never read as a
    // placeholder once put in.
    const generalDraft = await page(general.id, `?modele=${template.id}`, "admin");
    expect(generalDraft.body).toBe(
      `Bonjour Paul {offre},\nVotre demande ${general.reference} (votre demande) est bien reçue.\n${emails.admin}\n{inconnu}`,
    );
    // No choice, a malformed one, a template that is gone: the page as usual, the message empty.
    for (const query of ["", "?modele=", "?modele=abc", "?modele=-1", "?modele=999999"]) {
      const none = await page(about.id, query);
      expect(none, query).toEqual({ options: chosen.options, chosenId: null, body: null });
    }
  });

  it("replaces each placeholder once, and keeps the message within its limit", () => {
    const values = {
      nom: "{reference}",
      reference: "DEM-2026-00001",
      offre: "votre demande",
      signature: "a@b.fr",
    };
    expect(applyReplyTemplate("{nom} {reference} {NOM} {offre}{signature}", values)).toBe(
      "{reference} DEM-2026-00001 {NOM} votre demandea@b.fr",
    );
    expect(
      applyReplyTemplate("{nom}".repeat(5_000), { ...values, nom: "x".repeat(10) }),
    ).toHaveLength(10_000);
  });
});

describe(`a stray message's deletion (${testDatabaseKind})`, () => {
  it("asks a confirmation first, and deletes only once confirmed", async () => {
    const [user] = await database.db
      .insert(users)
      .values({ email: "sales@example.fr", passwordHash: "not used", role: "sales" })
      .returning({ id: users.id });
    const cookie = await sessionCookieFor(user.id);
    const [stray] = await database.db
      .insert(requestMessages)
      .values({
        direction: "inbound",
        authorEmail: "paul@autre.example",
        subject: "Publicité",
        body: "Achetez nos écrans.",
        messageId: "<stray-1@autre.example>",
      })
      .returning({ id: requestMessages.id });
    const post = (form: Record<string, string>) =>
      call(unattachedPage.action, makeRequest("/admin/messages", { cookie, form }));
    const remaining = () =>
      database.db.select().from(requestMessages).where(eq(requestMessages.id, stray.id));

    const asked = await post({ intent: "discard", id: String(stray.id) });
    expect(asked.status).toBe(302);
    expect(asked.location).toBe(`/admin/messages?discard=${stray.id}`);
    expect(await remaining()).toHaveLength(1);
    const confirmation = await call(
      unattachedPage.loader,
      makeRequest(`/admin/messages?discard=${stray.id}`, { cookie }),
    );
    expect(confirmation.data).toMatchObject({
      pendingDiscard: { id: stray.id, subject: "Publicité" },
    });
    // Another value than the confirmation's own is no confirmation.
    const forged = await post({ intent: "discard", id: String(stray.id), confirm: "on" });
    expect(forged.status).toBe(400);
    expect(await remaining()).toHaveLength(1);

    const done = await post({ intent: "discard", id: String(stray.id), confirm: "yes" });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/admin/messages");
    expect(done.headers.get("set-cookie")).toContain("flash=messageDiscarded");
    expect(await remaining()).toEqual([]);
    const entries = await database.db.select().from(auditJournal);
    expect(entries.map((entry) => entry.action)).toEqual(["message-discarded"]);
  });
});
