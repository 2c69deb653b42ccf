import { Plus } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { RemoveLink } from "~/components/admin/row-actions";
import { Button } from "~/components/ui/button";
import { SectionCard } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import {
  addSynonymGroup,
  listSynonymGroups,
  removeSynonymGroup,
} from "~/features/offers/search-synonyms.server";
import { adminMeta } from "~/routes/admin/meta";
import { firstFieldError } from "~/lib/field-errors";
import { CONTROL_CHARACTERS } from "~/lib/limits";
import { actionDone, actionFailure, readForm } from "~/platform/form.server";
import type { Route } from "./+types/search-synonyms";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Synonymes de la recherche");

const PATH = "/admin/recherche";
const PHRASES_MAX = 10;
const PHRASE_MAX = 60;

const MESSAGES = {
  addFailed: "Erreur lors de l'ajout des synonymes",
  removeFailed: "Erreur lors de la suppression des synonymes",
  tooFew: "Indiquez au moins deux expressions différentes, séparées par « = ».",
  duplicate: "Ce groupe de synonymes existe déjà.",
  missing: "Ce groupe de synonymes n'existe plus.",
  removeConfirm: "Êtes-vous sûr de vouloir supprimer ces synonymes ?",
} as const;

const phrasesSchema = z
  .string()
  .max(PHRASES_MAX * (PHRASE_MAX + 3), "La liste est trop longue.")
  .refine((v) => !CONTROL_CHARACTERS.test(v), "La liste contient des caractères non autorisés.")
  .transform((v) =>
    v
      .split("=")
      .map((p) => p.trim().replace(/\s+/g, " "))
      .filter(Boolean),
  )
  .pipe(
    z
      .array(
        z.string().max(PHRASE_MAX, `Une expression ne doit pas dépasser ${PHRASE_MAX} caractères.`),
      )
      .min(2, MESSAGES.tooFew)
      .max(PHRASES_MAX, `Un groupe compte au plus ${PHRASES_MAX} expressions.`),
  );

const formSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), phrases: phrasesSchema }),
  z.object({
    intent: z.literal("remove"),
    id: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1),
  }),
]);

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, "offers");
  const groups = await listSynonymGroups();
  const remove = Number(new URL(request.url).searchParams.get("remove"));
  return { groups, pendingRemove: groups.find((g) => g.id === remove) ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "offers");
  const submission = await readForm(request, formSchema);
  if (!submission.success) {
    const { fieldErrors } = submission;
    const removing = submission.values.intent === "remove";
    return actionFailure(400, {
      error: removing ? MESSAGES.removeFailed : MESSAGES.addFailed,
      description: removing ? MESSAGES.missing : firstFieldError(fieldErrors, MESSAGES.tooFew),
      fieldErrors,
    });
  }
  const input = submission.data;
  if (input.intent === "add") {
    const result = await addSynonymGroup(input.phrases);
    if (result.kind !== "added") {
      const description = MESSAGES[result.kind];
      return actionFailure(result.kind === "duplicate" ? 409 : 400, {
        error: MESSAGES.addFailed,
        description,
        fieldErrors: { phrases: description },
      });
    }
    return actionDone(request, context, "synonymsAdded", PATH, {
      actor: user,
      action: "synonyms-added",
      target: input.phrases.join(" = ").slice(0, 200),
    });
  }
  const result = await removeSynonymGroup(input.id);
  if (result.kind === "missing") {
    return actionFailure(404, { error: MESSAGES.removeFailed, description: MESSAGES.missing });
  }
  return actionDone(request, context, "synonymsRemoved", PATH, {
    actor: user,
    action: "synonyms-removed",
    target: result.phrases.join(" = ").slice(0, 200),
  });
}

export default function AdminSearchSynonyms({ loaderData, actionData }: Route.ComponentProps) {
  const { groups, pendingRemove } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">Synonymes de la recherche</h1>
        <p className="text-muted-foreground">
          Une recherche qui contient l&apos;une des expressions d&apos;un groupe trouve aussi les
          offres qui disent l&apos;une des autres : « epic » trouve « EPYC ».
        </p>
      </div>
      <ActionFailureAlert answer={actionData} />
      <ConfirmDialog
        open={pendingRemove !== null}
        id="confirm-remove"
        title={MESSAGES.removeConfirm}
        description={pendingRemove ? pendingRemove.phrases.join(" = ") : ""}
        action={PATH}
        fields={{ intent: "remove", id: String(pendingRemove?.id ?? "") }}
        confirmLabel="Supprimer"
        cancelTo={PATH}
      />
      <ul className="divide-y rounded-lg border bg-card" aria-label="Groupes de synonymes">
        {groups.length === 0 ? (
          <li className="p-4 text-muted-foreground">Aucun synonyme.</li>
        ) : null}
        {groups.map((group) => (
          <li key={group.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <p className="font-medium break-words">{group.phrases.join(" = ")}</p>
            <RemoveLink
              to={`${PATH}?remove=${group.id}`}
              label={`Supprimer les synonymes ${group.phrases.join(" = ")}`}
            />
          </li>
        ))}
      </ul>
      <SectionCard
        title="Ajouter des synonymes"
        description="Des expressions qu'un client peut taper l'une pour l'autre, séparées par « = »."
      >
        <Form
          method="post"
          action={PATH}
          className="grid gap-4 md:grid-cols-[1fr_auto] md:items-start"
          aria-label="Ajouter des synonymes"
        >
          <input type="hidden" name="intent" value="add" />
          <Field
            id="synonym-phrases"
            label="Expressions *"
            error={actionData?.fieldErrors?.phrases}
          >
            <Input
              name="phrases"
              required
              maxLength={PHRASES_MAX * (PHRASE_MAX + 3)}
              placeholder="disque dur = HDD"
            />
          </Field>
          <Button type="submit" disabled={busy} className="md:mt-7">
            <Plus aria-hidden="true" /> Ajouter
          </Button>
        </Form>
      </SectionCard>
    </div>
  );
}
