import { z } from "zod";
import { ReferenceList } from "~/components/admin/reference-list";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import {
  addSynonymGroup,
  listSynonymGroups,
  removeSynonymGroup,
} from "~/features/offers/search-synonyms.server";
import { adminMeta } from "~/routes/admin/meta";
import { CONTROL_CHARACTERS } from "~/lib/limits";
import { actionDone, readForm } from "~/platform/form.server";
import { listRefusals } from "./reference-list.server";
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
const refused = listRefusals(MESSAGES, "phrases");

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
  if (!submission.success) return refused.unread(submission, MESSAGES.tooFew);
  const input = submission.data;
  if (input.intent === "add") {
    const result = await addSynonymGroup(input.phrases);
    if (result.kind !== "added") return refused.add(result.kind);
    return actionDone(request, context, "synonymsAdded", PATH, {
      actor: user,
      action: "synonyms-added",
      target: input.phrases.join(" = ").slice(0, 200),
    });
  }
  const result = await removeSynonymGroup(input.id);
  if (result.kind === "missing") return refused.missing();
  return actionDone(request, context, "synonymsRemoved", PATH, {
    actor: user,
    action: "synonyms-removed",
    target: result.phrases.join(" = ").slice(0, 200),
  });
}

export default function AdminSearchSynonyms({ loaderData, actionData }: Route.ComponentProps) {
  const { groups, pendingRemove } = loaderData;
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">Synonymes de la recherche</h1>
        <p className="text-muted-foreground">
          Une recherche qui contient l&apos;une des expressions d&apos;un groupe trouve aussi les
          offres qui disent l&apos;une des autres : « epic » trouve « EPYC ».
        </p>
      </div>
      <ReferenceList
        path={PATH}
        answer={actionData}
        items={groups}
        itemKey={(group) => group.id}
        listLabel="Groupes de synonymes"
        empty="Aucun synonyme."
        renderItem={(group) => (
          <p className="font-medium break-words">{group.phrases.join(" = ")}</p>
        )}
        removeLabel={(group) => `Supprimer les synonymes ${group.phrases.join(" = ")}`}
        pendingRemove={pendingRemove}
        removeField="id"
        confirmTitle={MESSAGES.removeConfirm}
        confirmDescription={(group) => group.phrases.join(" = ")}
        addTitle="Ajouter des synonymes"
        addDescription="Des expressions qu'un client peut taper l'une pour l'autre, séparées par « = »."
        addField={
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
        }
      />
    </div>
  );
}
