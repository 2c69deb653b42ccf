import { asc, eq, sql } from "drizzle-orm";
import { idSchema } from "~/platform/form.server";
import { db, type Database } from "~/platform/db.server";
import { replyTemplates } from "~/platform/schema.server";
import type { AdminUser } from "~/features/accounts/users.server";
import { applyReplyTemplate, type ReplyTemplateInput } from "./reply-template-form";

// `Modèles de réponse` (issue 40): the texts the sales team keeps (/admin/modeles), and the one a
// salesperson picks on a request's page (`?modele=ID`), its placeholders replaced there.

const columns = {
  id: replyTemplates.id,
  title: replyTemplates.title,
  body: replyTemplates.body,
  updatedAt: replyTemplates.updatedAt,
};

/** Every template, by title whatever its case (a short list the team keeps by hand). */
export function listReplyTemplates(database: Database = db()) {
  return database
    .select(columns)
    .from(replyTemplates)
    .orderBy(asc(sql`lower(${replyTemplates.title})`), asc(replyTemplates.id));
}

export type ReplyTemplate = Awaited<ReturnType<typeof listReplyTemplates>>[number];

export async function findReplyTemplate(
  id: number,
  database: Database = db(),
): Promise<ReplyTemplate | undefined> {
  const [row] = await database
    .select(columns)
    .from(replyTemplates)
    .where(eq(replyTemplates.id, id));
  return row;
}

/** True when `error` (or its cause) is the unique index on the titles' lower case. */
function isTitleTaken(error: unknown): boolean {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (
      code === "23505" &&
      (constraint === undefined || constraint === "reply_templates_title_key")
    ) {
      return true;
    }
  }
  return false;
}

export async function createReplyTemplate(
  input: ReplyTemplateInput,
  database: Database = db(),
): Promise<{ kind: "created"; id: number } | { kind: "duplicate" }> {
  // The unique index decides (two people saving the same title at once): no row means taken.
  const [row] = await database
    .insert(replyTemplates)
    .values(input)
    .onConflictDoNothing()
    .returning({ id: replyTemplates.id });
  return row ? { kind: "created", id: row.id } : { kind: "duplicate" };
}

export async function updateReplyTemplate(
  id: number,
  input: ReplyTemplateInput,
  database: Database = db(),
): Promise<{ kind: "updated" | "duplicate" | "missing" }> {
  try {
    const rows = await database
      .update(replyTemplates)
      .set({ ...input, updatedAt: sql`now()` })
      .where(eq(replyTemplates.id, id))
      .returning({ id: replyTemplates.id });
    return { kind: rows.length ? "updated" : "missing" };
  } catch (error) {
    if (isTitleTaken(error)) return { kind: "duplicate" };
    throw error;
  }
}

/** Deletes a template; its title, or undefined when it was already gone. */
export async function deleteReplyTemplate(
  id: number,
  database: Database = db(),
): Promise<string | undefined> {
  const [row] = await database
    .delete(replyTemplates)
    .where(eq(replyTemplates.id, id))
    .returning({ title: replyTemplates.title });
  return row?.title;
}

/** The templates offered above the request page's message, and the one `?modele=` picked. */
export type ReplyTemplateChoice = {
  options: { id: number; title: string }[];
  chosen: ReplyTemplate | undefined;
};

/**
 * Reads the request page's `?modele=ID`: an id that is malformed or names no template is simply
 * no choice (a stale link, a deleted template), never an error.
 */
export async function replyTemplateChoice(
  url: string,
  database: Database = db(),
): Promise<ReplyTemplateChoice> {
  const id = idSchema.safeParse(new URL(url).searchParams.get("modele") ?? "");
  const templates = await listReplyTemplates(database);
  return {
    options: templates.map(({ id, title }) => ({ id, title })),
    chosen: id.success ? templates.find((template) => template.id === id.data) : undefined,
  };
}

/** What the page needs of the choice: the options, and the message the chosen one starts. */
export type ReplyTemplateDraft = {
  options: { id: number; title: string }[];
  chosenId: number | null;
  body: string | null;
};

/**
 * The chosen template applied to one request, for one salesperson: `{nom}`, `{reference}`,
 * `{offre}` (the offer's title, or "votre demande" for a general request) and `{signature}` (the
 * account's e-mail: accounts have no other name).
 */
export function replyDraft(
  choice: ReplyTemplateChoice,
  request: { name: string; reference: string; offer: { title: string } | null },
  author: Pick<AdminUser, "email">,
): ReplyTemplateDraft {
  const { chosen } = choice;
  return {
    options: choice.options,
    chosenId: chosen?.id ?? null,
    body: chosen
      ? applyReplyTemplate(chosen.body, {
          nom: request.name,
          reference: request.reference,
          offre: request.offer?.title ?? "votre demande",
          signature: author.email,
        })
      : null,
  };
}
