import { RemoveLink } from "~/components/admin/row-actions";
import { Plus } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { SectionCard } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import { CONTROL_CHARACTERS, DATACENTER_NAME_MAX } from "~/lib/limits";
import { firstFieldError } from "~/lib/field-errors";
import { pluralize } from "~/lib/format";
import { REFERENCE_CODE } from "~/lib/offer-filters";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import {
  addDatacenter,
  listDatacenters,
  removeDatacenter,
} from "~/features/offers/datacenters.server";
import { actionFailure, actionDone, readForm } from "~/platform/form.server";
import { log } from "~/platform/log.server";
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
  if (!submission.success) {
    const { fieldErrors } = submission;
    const removing = submission.values.intent === "remove";
    return actionFailure(400, {
      error: removing ? MESSAGES.removeFailed : MESSAGES.addFailed,
      description: removing ? MESSAGES.missing : firstFieldError(fieldErrors, MESSAGES.addFailed),
      fieldErrors,
    });
  }
  const input = submission.data;
  if (input.intent === "add") {
    const result = await addDatacenter(input.name);
    if (result.kind !== "added") {
      const description = MESSAGES[result.kind];
      return actionFailure(result.kind === "duplicate" ? 409 : 400, {
        error: MESSAGES.addFailed,
        description,
        fieldErrors: { name: description },
      });
    }
    log.info("datacenter added", { requestId: context.requestId, code: result.code });
    return actionDone(request, context, "datacenterAdded", PATH, {
      actor: user,
      action: "datacenter-added",
      target: `datacenter ${result.code}`,
    });
  }
  const result = await removeDatacenter(input.code);
  if (result.kind === "missing") {
    return actionFailure(404, { error: MESSAGES.removeFailed, description: MESSAGES.missing });
  }
  log.info("datacenter removed", { requestId: context.requestId, code: input.code });
  return actionDone(request, context, "datacenterRemoved", PATH, {
    actor: user,
    action: "datacenter-removed",
    target: `datacenter ${input.code}`,
  });
}

export default function AdminDatacenters({ loaderData, actionData }: Route.ComponentProps) {
  const { datacenters, pendingRemove } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Datacenters</h1>
      <ActionFailureAlert answer={actionData} />
      <ConfirmDialog
        open={pendingRemove !== null}
        id="confirm-remove"
        title={MESSAGES.removeConfirm}
        description={`Les offres situées à ${pendingRemove?.name} n'indiqueront plus de datacenter.`}
        action={PATH}
        fields={{ intent: "remove", code: pendingRemove?.code ?? "" }}
        confirmLabel="Supprimer"
        cancelTo={PATH}
      />
      <ul className="divide-y rounded-lg border bg-card" aria-label="Liste des datacenters">
        {datacenters.length === 0 ? (
          <li className="p-4 text-muted-foreground">Aucun datacenter.</li>
        ) : null}
        {datacenters.map((dc) => (
          <li key={dc.code} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <div>
              <p className="font-medium">{dc.name}</p>
              <p className="text-sm text-muted-foreground">
                location={dc.code} — {dc.offerCount} {pluralize(dc.offerCount, "offre", "offres")}
              </p>
            </div>
            <RemoveLink
              to={`${PATH}?remove=${dc.code}`}
              label={`Supprimer le datacenter ${dc.name}`}
            />
          </li>
        ))}
      </ul>
      <SectionCard
        title="Ajouter un datacenter"
        description="Il devient un choix du formulaire des offres et un filtre du catalogue."
      >
        <Form
          method="post"
          action={PATH}
          className="grid gap-4 md:grid-cols-[1fr_auto] md:items-start"
          aria-label="Ajouter un datacenter"
        >
          <input type="hidden" name="intent" value="add" />
          <Field id="datacenter-name" label="Nom *" error={actionData?.fieldErrors?.name}>
            <Input name="name" required maxLength={DATACENTER_NAME_MAX} placeholder="Paris" />
          </Field>
          <Button type="submit" disabled={busy} className="md:mt-7">
            <Plus aria-hidden="true" /> Ajouter
          </Button>
        </Form>
      </SectionCard>
    </div>
  );
}
