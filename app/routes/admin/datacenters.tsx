import { z } from "zod";
import { ReferenceList } from "~/components/admin/reference-list";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import { CONTROL_CHARACTERS, DATACENTER_NAME_MAX } from "~/lib/limits";
import { pluralize } from "~/lib/format";
import { REFERENCE_CODE } from "~/lib/offer-filters";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import {
  addDatacenter,
  listDatacenters,
  removeDatacenter,
} from "~/features/offers/datacenters.server";
import { actionDone, readForm } from "~/platform/form.server";
import { log } from "~/platform/log.server";
import { listRefusals } from "./reference-list.server";
import type { Route } from "./+types/datacenters";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Datacenters");

const MESSAGES = {
  addFailed: "Erreur lors de l'ajout du datacenter",
  removeFailed: "Erreur lors de la suppression du datacenter",
  duplicate: "Un datacenter porte déjà ce nom.",
  invalid: "Le nom doit contenir au moins une lettre ou un chiffre.",
  missing: "Ce datacenter n'existe plus.",
  removeConfirm: "Êtes-vous sûr de vouloir supprimer ce datacenter ?",
} as const;

const PATH = "/admin/datacenters";
const refused = listRefusals(MESSAGES, "name");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, "offers");
  const rows = await listDatacenters();
  const remove = new URL(request.url).searchParams.get("remove");
  return { datacenters: rows, pendingRemove: rows.find((d) => d.code === remove) ?? null };
}

const formSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    name: z
      .string()
      .trim()
      .min(1, "Ce champ est obligatoire.")
      .max(DATACENTER_NAME_MAX, `Le nom ne doit pas dépasser ${DATACENTER_NAME_MAX} caractères.`)
      .refine((v) => !CONTROL_CHARACTERS.test(v), "Le nom contient des caractères non autorisés."),
  }),
  z.object({ intent: z.literal("remove"), code: z.string().regex(REFERENCE_CODE) }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "offers");
  const submission = await readForm(request, formSchema);
  if (!submission.success) return refused.unread(submission, MESSAGES.addFailed);
  const input = submission.data;
  if (input.intent === "add") {
    const result = await addDatacenter(input.name);
    if (result.kind !== "added") return refused.add(result.kind);
    log.info("datacenter added", { requestId: context.requestId, code: result.code });
    return actionDone(request, context, "datacenterAdded", PATH, {
      actor: user,
      action: "datacenter-added",
      target: `datacenter ${result.code}`,
    });
  }
  const result = await removeDatacenter(input.code);
  if (result.kind === "missing") return refused.missing();
  log.info("datacenter removed", { requestId: context.requestId, code: input.code });
  return actionDone(request, context, "datacenterRemoved", PATH, {
    actor: user,
    action: "datacenter-removed",
    target: `datacenter ${input.code}`,
  });
}

export default function AdminDatacenters({ loaderData, actionData }: Route.ComponentProps) {
  const { datacenters, pendingRemove } = loaderData;
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Datacenters</h1>
      <ReferenceList
        path={PATH}
        answer={actionData}
        items={datacenters}
        itemKey={(dc) => dc.code}
        listLabel="Liste des datacenters"
        empty="Aucun datacenter."
        renderItem={(dc) => (
          <div>
            <p className="font-medium">{dc.name}</p>
            <p className="text-sm text-muted-foreground">
              location={dc.code} — {dc.offerCount} {pluralize(dc.offerCount, "offre", "offres")}
            </p>
          </div>
        )}
        removeLabel={(dc) => `Supprimer le datacenter ${dc.name}`}
        pendingRemove={pendingRemove}
        removeField="code"
        confirmTitle={MESSAGES.removeConfirm}
        confirmDescription={(dc) =>
          `Les offres situées à ${dc.name} n'indiqueront plus de datacenter.`
        }
        addTitle="Ajouter un datacenter"
        addDescription="Il devient un choix du formulaire des offres et un filtre du catalogue."
        addField={
          <Field id="datacenter-name" label="Nom *" error={actionData?.fieldErrors?.name}>
            <Input name="name" required maxLength={DATACENTER_NAME_MAX} placeholder="Paris" />
          </Field>
        }
      />
    </div>
  );
}
