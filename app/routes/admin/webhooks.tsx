import { RemoveLink, RowActionForm } from "~/components/admin/row-actions";
import { journal } from "~/platform/journal.server";
import { Plus, RotateCcw } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle, SectionCard } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { adminMeta } from "~/routes/admin/meta";
import { firstFieldError } from "~/lib/field-errors";
import { formatDateTime, isoDate } from "~/lib/format";
import {
  chosenEvents,
  FIRST_EVENT_FIELD,
  webhookCreateSchema,
} from "~/features/webhooks/webhook-form-schema";
import {
  WEBHOOK_EVENT_TABLE,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX,
  type WebhookEvent,
} from "~/features/webhooks/webhooks";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { confirmIdentity } from "~/features/accounts/own-credentials.server";
import { env } from "~/platform/env.server";
import { ConfirmIdentity } from "~/features/accounts/confirm-identity";
import { identityAnswer } from "./confirm-identity.server";
import { actionFailure, actionDone, idSchema, parseId, readForm } from "~/platform/form.server";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  resendDelivery,
  type WebhookEndpointView,
} from "~/features/webhooks/webhooks.server";
import type { Route } from "./+types/webhooks";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Webhooks");

const PAGE = "/admin/webhooks";

const WEBHOOK_MESSAGES = {
  createFailed: "Erreur lors de l'ajout du webhook",
  deleteFailed: "Erreur lors de la suppression du webhook",
  resendFailed: "Erreur lors du renvoi",
  private:
    "Cette adresse mène à un réseau local ou privé : refusée (WEBHOOK_ALLOW_PRIVATE=true pour l'autoriser).",
  insecure:
    "En http://, seule une adresse locale ou privée est acceptée : utilisez https:// pour une adresse publique.",
  unresolvable: "Ce nom de domaine est introuvable.",
  retry: "Veuillez réessayer.",
  missing: "Ce webhook n'existe plus.",
  deliveryBusy: "Cette livraison n'existe plus ou est en cours d'envoi.",
  deleteConfirm: "Supprimer ce webhook ?",
} as const;

const DELIVERY_STATUS_LABELS = {
  pending: "En attente",
  delivered: "Livré",
  failed: "Abandonné",
} as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const endpoints = await listWebhookEndpoints();
  const deleteId = parseId(new URL(request.url).searchParams.get("delete"));
  return { endpoints, pendingDelete: endpoints.find((e) => e.id === deleteId) ?? null };
}

/** `http://` is accepted only with WEBHOOK_ALLOW_PRIVATE (then to private addresses only). */
const webhookFormSchema = (allowHttp: boolean) =>
  z.discriminatedUnion("intent", [
    webhookCreateSchema({ allowHttp }),
    z.object({ intent: z.literal("delete"), id: idSchema }),
    z.object({ intent: z.literal("resend"), id: idSchema }),
  ]);

/** The create form's fields: the address, and the first check box's for the events. */
const failure = actionFailure<"url" | typeof FIRST_EVENT_FIELD>;

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireAdmin(request);
  const { user } = session;
  const submission = await readForm(request, webhookFormSchema(env().WEBHOOK_ALLOW_PRIVATE));
  const { values } = submission;
  if (!submission.success) {
    if (values.intent === "create") {
      const { fieldErrors } = submission;
      return failure(400, {
        error: WEBHOOK_MESSAGES.createFailed,
        description: firstFieldError(fieldErrors, WEBHOOK_MESSAGES.createFailed),
        fieldErrors,
        values: { url: values.url.slice(0, WEBHOOK_URL_MAX) },
      });
    }
    return failure(400, { error: "Requête invalide" });
  }
  const input = submission.data;
  const ctx = { requestId: context.requestId };
  // An endpoint decides where every prospect's data goes: adding or removing one is sensitive.
  if (input.intent !== "resend") {
    const unconfirmed = identityAnswer(
      await confirmIdentity(session, submission.form),
      submission.form,
    );
    if (unconfirmed) return unconfirmed;
  }

  if (input.intent === "create") {
    const result = await createWebhookEndpoint(
      { url: input.url, events: chosenEvents(input) },
      ctx,
    );
    if (result.kind === "created") {
      await journal.record(context, {
        actor: user,
        action: "webhook-added",
        target: input.url.href,
      });
      // The new endpoint's secret: this answer is the only time it is shown.
      const created = { url: input.url.href, secret: result.secret };
      return data({ created }, { headers: PRIVATE_HEADERS });
    }
    const description =
      result.kind === "failed" ? WEBHOOK_MESSAGES.retry : WEBHOOK_MESSAGES[result.kind];
    return failure(result.kind === "failed" ? 503 : 400, {
      error: WEBHOOK_MESSAGES.createFailed,
      description,
      fieldErrors: result.kind === "failed" ? undefined : { url: description },
      values: { url: input.url.href },
    });
  }

  if (input.intent === "delete") {
    const result = await deleteWebhookEndpoint(input.id, ctx);
    if (result.kind === "failed") {
      return failure(503, {
        error: WEBHOOK_MESSAGES.deleteFailed,
        description: WEBHOOK_MESSAGES.retry,
      });
    }
    if (result.kind === "missing") {
      return failure(404, {
        error: WEBHOOK_MESSAGES.deleteFailed,
        description: WEBHOOK_MESSAGES.missing,
      });
    }
    return actionDone(request, context, "webhookDeleted", PAGE, {
      actor: user,
      action: "webhook-removed",
      target: `webhook ${input.id}`,
    });
  }

  const result = await resendDelivery(input.id, ctx);
  if (result.kind === "failed") {
    return failure(503, {
      error: WEBHOOK_MESSAGES.resendFailed,
      description: WEBHOOK_MESSAGES.retry,
    });
  }
  if (result.kind === "missing") {
    return failure(409, {
      error: WEBHOOK_MESSAGES.resendFailed,
      description: WEBHOOK_MESSAGES.deliveryBusy,
    });
  }
  return actionDone(request, context, "webhookResent", PAGE, {
    actor: user,
    action: "webhook-resent",
    target: `livraison ${input.id}`,
  });
}

export default function AdminWebhooks({ loaderData, actionData: answer }: Route.ComponentProps) {
  const reauth = answer && "reauth" in answer ? answer.reauth : undefined;
  const created = answer && "created" in answer ? answer.created : undefined;
  const actionData = answer && "error" in answer ? answer : undefined;
  const { endpoints, pendingDelete } = loaderData;
  const busy = useNavigation().state === "submitting";
  const errors = actionData?.fieldErrors ?? {};

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">Webhooks</h1>
        <p className="max-w-3xl text-muted-foreground">
          Chaque demande et ses changements (statut, attribution, note) sont envoyés aux adresses
          ci-dessous, signés selon la spécification Standard Webhooks (en-têtes{" "}
          <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>
          ). Un envoi refusé est retenté pendant 24 heures.
        </p>
      </div>

      {reauth ? <ConfirmIdentity action={PAGE} reauth={reauth} cancelTo={PAGE} /> : null}

      <ActionFailureAlert answer={actionData} />

      {created ? (
        <section
          aria-labelledby="webhook-secret"
          className="space-y-2 rounded-lg border border-primary bg-card p-4"
        >
          <h2 id="webhook-secret" className="text-lg font-semibold">
            Webhook ajouté : copiez son secret de signature
          </h2>
          <p className="text-sm">
            Il ne sera plus affiché. Le destinataire ({created.url}) l'utilise pour vérifier chaque
            envoi.
          </p>
          <p>
            <code data-webhook-secret className="break-all rounded bg-muted px-2 py-1 text-sm">
              {created.secret}
            </code>
          </p>
        </section>
      ) : null}

      <ConfirmDialog
        open={pendingDelete !== null}
        id="confirm-delete"
        title={WEBHOOK_MESSAGES.deleteConfirm}
        description={`${pendingDelete?.url} ne recevra plus rien ; ses envois en attente sont abandonnés.`}
        action={PAGE}
        fields={{ intent: "delete", id: pendingDelete?.id ?? "" }}
        confirmLabel="Supprimer"
        cancelTo={PAGE}
      />

      <section aria-labelledby="webhook-list" className="space-y-4">
        <h2 id="webhook-list" className="text-xl font-semibold">
          Adresses
        </h2>
        {endpoints.length === 0 ? (
          <p className="text-muted-foreground">Aucun webhook pour le moment.</p>
        ) : (
          endpoints.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} />)
        )}
      </section>

      <SectionCard
        title="Ajouter un webhook"
        description="L'adresse de votre CRM ou outil qui reçoit les demandes (POST JSON)."
      >
        <Form method="post" action={PAGE} className="space-y-4" aria-label="Ajouter un webhook">
          <input type="hidden" name="intent" value="create" />
          <Field
            id="webhook-url"
            label="Adresse (URL) *"
            error={errors.url}
            description="Commence par https:// : les demandes n'y circulent que chiffrées."
          >
            <Input
              name="url"
              type="url"
              required
              maxLength={WEBHOOK_URL_MAX}
              placeholder="https://crm.example.com/webhooks/serveurpro"
              defaultValue={actionData?.values?.url ?? ""}
            />
          </Field>
          <fieldset
            className="space-y-2"
            aria-describedby={errors[FIRST_EVENT_FIELD] ? "webhook-events-error" : undefined}
          >
            <legend className="text-sm font-medium">Événements *</legend>
            {WEBHOOK_EVENTS.map((event) => (
              <EventCheckbox key={event} event={event} />
            ))}
            {errors[FIRST_EVENT_FIELD] ? (
              <p id="webhook-events-error" className="text-sm text-destructive">
                {errors[FIRST_EVENT_FIELD]}
              </p>
            ) : null}
          </fieldset>
          <Button type="submit" disabled={busy}>
            <Plus aria-hidden="true" /> Ajouter
          </Button>
        </Form>
      </SectionCard>
    </div>
  );
}

function EventCheckbox({ event }: { event: WebhookEvent }) {
  const { field, label } = WEBHOOK_EVENT_TABLE[event];
  return (
    <label className="flex items-center gap-2 text-sm">
      <Checkbox name={field} defaultChecked />
      <code>{event}</code> — {label}
    </label>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpointView }) {
  return (
    <Card data-webhook-endpoint={endpoint.id}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <CardTitle as="h3" className="break-all text-base">
            {endpoint.url}
          </CardTitle>
          <p className="flex flex-wrap gap-2">
            {endpoint.events.map((event) => (
              <Badge key={event} variant="secondary">
                {event}
              </Badge>
            ))}
          </p>
        </div>
        <RemoveLink
          to={`${PAGE}?delete=${endpoint.id}`}
          label={`Supprimer le webhook ${endpoint.url}`}
        />
      </CardHeader>
      <CardContent>
        {endpoint.deliveries.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aucun envoi pour le moment.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Derniers envois vers {endpoint.url}</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Événement
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  État
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Code
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Dernier essai
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Essais
                </th>
                <th scope="col" className="py-2 font-medium">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoint.deliveries.map((delivery) => (
                <tr
                  key={delivery.id}
                  className="border-b last:border-0"
                  data-webhook-delivery={delivery.id}
                >
                  <td className="py-2 pr-3">
                    <code>{delivery.eventType}</code>
                  </td>
                  <td className="py-2 pr-3" title={delivery.lastError ?? undefined}>
                    {DELIVERY_STATUS_LABELS[delivery.status]}
                  </td>
                  <td className="py-2 pr-3">{delivery.lastStatusCode ?? "—"}</td>
                  <td className="py-2 pr-3">
                    {delivery.lastAttemptAt ? (
                      <time dateTime={isoDate(delivery.lastAttemptAt)}>
                        {formatDateTime(delivery.lastAttemptAt)}
                      </time>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className="py-2 pr-3">{delivery.attempts}</td>
                  <td className="py-2 text-right">
                    <RowActionForm
                      action={PAGE}
                      intent="resend"
                      id={delivery.id}
                      label={`Renvoyer l'envoi ${delivery.id}`}
                    >
                      <RotateCcw aria-hidden="true" /> Renvoyer
                    </RowActionForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}
