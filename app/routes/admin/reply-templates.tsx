import { FileText, Plus } from "lucide-react";
import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { RemoveLink } from "~/components/admin/row-actions";
import { Button } from "~/components/ui/button";
import { Card, CardContent, SectionCard } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Input, Textarea } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import type { FlashKey } from "~/lib/admin-messages";
import { firstFieldError, type FieldErrors } from "~/lib/field-errors";
import { formatDateTime, isoDate } from "~/lib/format";
import type { JournalAction } from "~/platform/journal";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import {
  DUPLICATE_TITLE,
  REPLY_TEMPLATE_BODY_MAX,
  REPLY_TEMPLATE_PLACEHOLDERS,
  REPLY_TEMPLATE_TITLE_MAX,
  replyTemplateSchema,
  type ReplyTemplateFields,
} from "~/features/conversation/reply-template-form";
import {
  createReplyTemplate,
  deleteReplyTemplate,
  listReplyTemplates,
  updateReplyTemplate,
  type ReplyTemplate,
} from "~/features/conversation/reply-templates.server";
import { withDatabase } from "~/platform/availability.server";
import { actionDone, actionFailure, idSchema, parseId, readForm } from "~/platform/form.server";
import type { Route } from "./+types/reply-templates";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Modèles de réponse");

const PATH = "/admin/modeles";

const MESSAGES = {
  createFailed: "Modèle non créé",
  updateFailed: "Modèle non enregistré",
  deleteFailed: "Modèle non supprimé",
  missing: "Ce modèle n'existe plus.",
  deleteConfirm: "Supprimer ce modèle de réponse ?",
} as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, "contacts");
  const templates = await listReplyTemplates();
  // `Supprimer` leads here (?delete=ID): the confirmation, with or without JavaScript.
  const deleteId = parseId(new URL(request.url).searchParams.get("delete"));
  const pendingDelete = templates.find((template) => template.id === deleteId) ?? null;
  return { templates, pendingDelete, deleteMissing: deleteId !== undefined && !pendingDelete };
}

const formSchema = z.discriminatedUnion("intent", [
  replyTemplateSchema.extend({ intent: z.literal("create") }),
  replyTemplateSchema.extend({ intent: z.literal("update"), id: idSchema }),
  // Only the confirmation's form says `confirm`: a bare post asks first.
  z.object({ intent: z.literal("delete"), id: idSchema, confirm: z.literal("yes").optional() }),
]);

type Fields = ReplyTemplateFields | "id";
type SaveResult =
  Awaited<ReturnType<typeof createReplyTemplate>> | Awaited<ReturnType<typeof updateReplyTemplate>>;
const failure = actionFailure<Fields>;

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const submission = await readForm(request, formSchema);
  const { values } = submission;
  const intent = values.intent;
  if (intent !== "create" && intent !== "update" && intent !== "delete") {
    return failure(400, { intent: null, error: "Requête invalide" });
  }
  if (!submission.success) {
    if (intent === "delete" || submission.fieldErrors.id) {
      const error = intent === "delete" ? MESSAGES.deleteFailed : MESSAGES.updateFailed;
      return failure(404, { intent, error, description: MESSAGES.missing });
    }
    const { fieldErrors } = submission;
    const error = intent === "create" ? MESSAGES.createFailed : MESSAGES.updateFailed;
    return failure(400, {
      intent,
      error,
      description: firstFieldError(fieldErrors, error),
      fieldErrors,
      values: {
        id: values.id,
        title: values.title.slice(0, 1_000),
        body: values.body.slice(0, 20_000),
      },
    });
  }
  const input = submission.data;
  const done = (flash: FlashKey, action: JournalAction, id: number, title: string) =>
    actionDone(request, context, flash, PATH, {
      actor: user,
      action,
      target: `modèle ${id} « ${title} »`,
    });

  if (input.intent === "delete") {
    if (!input.confirm) {
      throw redirect(`${PATH}?delete=${input.id}`, { headers: PRIVATE_HEADERS });
    }
    const title = await withDatabase("delete reply template", context, () =>
      deleteReplyTemplate(input.id),
    );
    if (title === undefined) {
      return failure(404, { intent, error: MESSAGES.deleteFailed, description: MESSAGES.missing });
    }
    return done("replyTemplateDeleted", "reply-template-deleted", input.id, title);
  }

  const { title, body } = input;
  const saved = await withDatabase("save reply template", context, (): Promise<SaveResult> =>
    input.intent === "create"
      ? createReplyTemplate({ title, body })
      : updateReplyTemplate(input.id, { title, body }),
  );
  const error = input.intent === "create" ? MESSAGES.createFailed : MESSAGES.updateFailed;
  const typed = { id: input.intent === "update" ? String(input.id) : "", title, body };
  if (saved.kind === "duplicate") {
    return failure(409, {
      intent,
      error,
      description: DUPLICATE_TITLE,
      fieldErrors: { title: DUPLICATE_TITLE },
      values: typed,
    });
  }
  if (saved.kind === "missing") {
    return failure(404, { intent, error, description: MESSAGES.missing });
  }
  if (saved.kind === "created") {
    return done("replyTemplateCreated", "reply-template-created", saved.id, title);
  }
  return done("replyTemplateUpdated", "reply-template-updated", Number(typed.id), title);
}

/** A form given back after a refusal: what was typed, and the errors by field. */
type Refused = { values: Partial<Record<Fields, string>>; fieldErrors: FieldErrors<Fields> };

function TemplateForm({
  template,
  refused,
  busy,
}: {
  /** The template edited; none for a new one. */
  template?: ReplyTemplate;
  refused?: Refused;
  busy: boolean;
}) {
  const prefix = template ? `template-${template.id}` : "template-new";
  const errors = refused?.fieldErrors ?? {};
  const typed = refused?.values;
  // A saved form shows what was saved; a refused one is given back as typed.
  const key = typed
    ? `refused-${typed.title}-${typed.body}`
    : `saved-${template ? isoDate(template.updatedAt) : "new"}`;
  return (
    <Form
      method="post"
      action={PATH}
      className="space-y-4"
      key={key}
      aria-label={template ? `Modifier le modèle ${template.title}` : "Nouveau modèle"}
    >
      <input type="hidden" name="intent" value={template ? "update" : "create"} />
      {template ? <input type="hidden" name="id" value={template.id} /> : null}
      <Field id={`${prefix}-title`} label="Titre *" error={errors.title}>
        <Input
          name="title"
          required
          maxLength={REPLY_TEMPLATE_TITLE_MAX}
          defaultValue={typed?.title ?? template?.title ?? ""}
          placeholder={template ? undefined : "Accusé de réception"}
        />
      </Field>
      <Field
        id={`${prefix}-body`}
        label="Texte *"
        description={`${REPLY_TEMPLATE_BODY_MAX} caractères au plus ; les champs entre accolades sont remplacés.`}
        error={errors.body}
      >
        <Textarea
          name="body"
          rows={8}
          required
          maxLength={REPLY_TEMPLATE_BODY_MAX}
          defaultValue={typed?.body ?? template?.body ?? ""}
        />
      </Field>
      <Button type="submit" disabled={busy}>
        {template ? (
          "Enregistrer"
        ) : (
          <>
            <Plus aria-hidden="true" /> Créer le modèle
          </>
        )}
      </Button>
    </Form>
  );
}

function Placeholders() {
  return (
    <SectionCard
      title="Champs remplacés"
      description="Écrits dans le texte d'un modèle, ils sont remplacés quand un commercial l'utilise sur une demande."
    >
      <dl className="grid gap-2 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
        {Object.entries(REPLY_TEMPLATE_PLACEHOLDERS).map(([key, meaning]) => (
          <div key={key} className="contents">
            <dt>
              <code className="rounded bg-muted px-1.5 py-0.5">{`{${key}}`}</code>
            </dt>
            <dd className="text-muted-foreground">{meaning}</dd>
          </div>
        ))}
      </dl>
    </SectionCard>
  );
}

export default function ReplyTemplatesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { templates, pendingDelete, deleteMissing } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const refusedFor = (intent: "create" | "update", id?: number): Refused | undefined => {
    if (!actionData || actionData.intent !== intent || !actionData.values) return undefined;
    if (id !== undefined && actionData.values.id !== String(id)) return undefined;
    return { values: actionData.values, fieldErrors: actionData.fieldErrors ?? {} };
  };

  return (
    <div className="space-y-8">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold">Modèles de réponse</h1>
        <p className="text-sm text-muted-foreground">
          Proposés au-dessus du message au client, sur la page de chaque demande (« Utiliser ce
          modèle »). Le commercial relit et complète le texte avant de l'envoyer.
        </p>
      </div>
      <ActionFailureAlert answer={actionData} state={navigation.state} />
      {deleteMissing ? <FormAlert>{MESSAGES.missing}</FormAlert> : null}
      <ConfirmDialog
        open={pendingDelete !== null}
        id="confirm-delete"
        title={MESSAGES.deleteConfirm}
        description={`« ${pendingDelete?.title} » ne sera plus proposé sur les demandes. Les messages déjà envoyés restent tels quels.`}
        action={PATH}
        fields={{ intent: "delete", id: pendingDelete?.id ?? "", confirm: "yes" }}
        confirmLabel="Supprimer"
        cancelTo={PATH}
      />

      <Placeholders />

      <section aria-labelledby="templates-list" className="space-y-4">
        <h2 id="templates-list" className="text-xl font-semibold">
          Modèles
        </h2>
        {templates.length === 0 ? (
          <p className="text-muted-foreground">Aucun modèle pour le moment.</p>
        ) : (
          <ul className="space-y-4" aria-label="Modèles de réponse">
            {templates.map((template) => (
              <li key={template.id}>
                <Card>
                  <CardContent className="space-y-4 pt-6">
                    <div className="flex flex-wrap items-start justify-between gap-3">
                      <div>
                        <h3 className="flex items-center gap-2 font-medium">
                          <FileText className="size-4 text-primary" aria-hidden="true" />
                          {template.title}
                        </h3>
                        <p className="text-xs text-muted-foreground">
                          Modifié le{" "}
                          <time dateTime={isoDate(template.updatedAt)}>
                            {formatDateTime(template.updatedAt)}
                          </time>
                        </p>
                      </div>
                      <RemoveLink
                        to={`${PATH}?delete=${template.id}`}
                        label={`Supprimer le modèle ${template.title}`}
                      />
                    </div>
                    <TemplateForm
                      template={template}
                      refused={refusedFor("update", template.id)}
                      busy={busy}
                    />
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>

      <SectionCard title="Nouveau modèle">
        <TemplateForm refused={refusedFor("create")} busy={busy} />
      </SectionCard>
    </div>
  );
}
