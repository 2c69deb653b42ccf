import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { RemoveLink } from "~/components/admin/row-actions";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { adminMeta } from "~/routes/admin/meta";
import { formatDateTime, isoDate, pluralize } from "~/lib/format";
import { parseContactReference } from "~/platform/contact-reference";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import {
  attachMessage,
  discardMessage,
  listUnattached,
  type UnattachedMessage,
} from "~/features/conversation/unattached.server";
import { MessageFiles } from "~/features/conversation/message-files";
import { withDatabase } from "~/platform/availability.server";
import { actionDone, actionFailure, idSchema, parseId, readForm } from "~/platform/form.server";
import type { Route } from "./+types/unattached-messages";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Messages non rattachés");

const PATH = "/admin/messages";
/** A message attached or discarded meanwhile (another tab, a colleague). */
const MESSAGE_GONE = {
  error: "Message introuvable",
  description: "Il a déjà été rattaché ou supprimé.",
};

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, "contacts");
  const { messages, count } = await listUnattached();
  // `Supprimer` leads here (?discard=ID): the confirmation, with or without JavaScript.
  const discardId = parseId(new URL(request.url).searchParams.get("discard"));
  const pendingDiscard = messages.find((message) => message.id === discardId) ?? null;
  return { messages, count, pendingDiscard };
}

const formSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("attach"),
    id: idSchema,
    reference: z
      .string()
      .trim()
      .toUpperCase()
      .transform((value, ctx) => {
        const reference = parseContactReference(value);
        if (!reference) {
          ctx.addIssue({ code: "custom", message: "Référence attendue : DEM-AAAA-NNNNN." });
          return z.NEVER;
        }
        return reference;
      }),
  }),
  // Only the confirmation's form says `confirm`: a bare post asks first.
  z.object({ intent: z.literal("discard"), id: idSchema, confirm: z.literal("yes").optional() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const form = await readForm(request);
  const parsed = formSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    return actionFailure(400, {
      error: "Action impossible",
      description: parsed.error.issues[0]?.message ?? "Requête invalide",
    });
  }
  const input = parsed.data;
  if (input.intent === "discard") {
    if (!input.confirm) {
      throw redirect(`${PATH}?discard=${input.id}`, { headers: PRIVATE_HEADERS });
    }
    const gone = await withDatabase("discard message", context, () => discardMessage(input.id));
    if (!gone) return actionFailure(404, MESSAGE_GONE);
    return actionDone(request, context, "messageDiscarded", "/admin/messages", {
      actor: user,
      action: "message-discarded",
      target: `message ${input.id}`,
    });
  }
  const attached = await withDatabase("attach message", context, () =>
    attachMessage(input.id, input.reference),
  );
  if (attached.kind === "no-request") {
    return actionFailure(404, {
      error: "Demande introuvable",
      description: `Aucune demande ne porte la référence ${input.reference}.`,
    });
  }
  if (attached.kind === "missing") return actionFailure(404, MESSAGE_GONE);
  return actionDone(request, context, "messageAttached", "/admin/messages", {
    actor: user,
    action: "message-attached",
    target: `message ${input.id} : demande ${attached.contactRequestId}`,
  });
}

const KIND_LABELS = {
  message: "Message",
  auto_reply: "Réponse automatique",
  bounce: "Retour non remis",
} as const;

function MessageCard({ message, busy }: { message: UnattachedMessage; busy: boolean }) {
  const field = `reference-${message.id}`;
  return (
    <li>
      <Card>
        <CardContent className="space-y-3 pt-6 text-sm">
          <p className="text-xs text-muted-foreground">
            {KIND_LABELS[message.kind]} de{" "}
            <span className="font-medium text-foreground">{message.authorEmail || "inconnu"}</span>{" "}
            · <time dateTime={isoDate(message.createdAt)}>{formatDateTime(message.createdAt)}</time>
          </p>
          <h2 className="font-medium">{message.subject || "(sans objet)"}</h2>
          <p className="max-h-48 overflow-auto whitespace-pre-line break-words rounded-md bg-muted/50 p-3">
            {message.body}
          </p>
          <MessageFiles
            messageId={message.id}
            files={message.attachments}
            hasHtml={message.hasHtml}
          />
          <div className="flex flex-wrap items-end gap-3">
            <Form method="post" className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value="attach" />
              <input type="hidden" name="id" value={message.id} />
              <div className="space-y-1">
                <Label htmlFor={field}>Référence de la demande</Label>
                <Input
                  id={field}
                  name="reference"
                  required
                  placeholder="DEM-2026-00012"
                  pattern="[Dd][Ee][Mm]-\d{4}-\d{5,10}"
                  className="w-48"
                />
              </div>
              <Button type="submit" disabled={busy}>
                Rattacher
              </Button>
            </Form>
            <RemoveLink
              to={`${PATH}?discard=${message.id}`}
              label={`Supprimer le message ${message.subject || "sans objet"}`}
            />
          </div>
        </CardContent>
      </Card>
    </li>
  );
}

export default function UnattachedMessagesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, count, pendingDiscard } = loaderData;
  const navigation = useNavigation();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold">Messages non rattachés</h1>
        <p className="text-sm text-muted-foreground" role="status">
          {count === 0
            ? "Aucun message en attente : chaque message reçu a trouvé sa demande."
            : `${count} ${pluralize(count, "message reçu", "messages reçus")} sans demande connue`}
        </p>
      </div>
      <ActionFailureAlert answer={actionData} state={navigation.state} always />
      <ConfirmDialog
        open={pendingDiscard !== null}
        id="confirm-discard"
        title="Supprimer ce message ?"
        description={`« ${pendingDiscard?.subject || "(sans objet)"} », de ${pendingDiscard?.authorEmail || "inconnu"}, sera supprimé définitivement : il ne pourra plus être rattaché à une demande.`}
        action={PATH}
        fields={{ intent: "discard", id: pendingDiscard?.id ?? "", confirm: "yes" }}
        confirmLabel="Supprimer"
        cancelTo={PATH}
      />
      {messages.length > 0 ? (
        <ul className="space-y-4" aria-label="Messages non rattachés">
          {messages.map((message) => (
            <MessageCard key={message.id} message={message} busy={navigation.state !== "idle"} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
