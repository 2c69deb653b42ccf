import { ArrowDownLeft, ArrowUpRight, MessagesSquare } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input, Textarea } from "~/components/ui/input";
import { formatDateTime, isoDate } from "~/lib/format";
import type { ConversationMessage } from "./conversation.server";
import { MessageFiles } from "./message-files";
import { REPLY_BODY_MAX, REPLY_SUBJECT_MAX, replySubject } from "./reply-form";
import { ReplyTemplatePicker } from "./reply-template-picker";
import type { ReplyTemplateDraft } from "./reply-templates.server";

/** What a refused message gave back: the fields as typed and the errors by field. */
export type RefusedReply = {
  values: Record<string, string | undefined>;
  fieldErrors: Record<string, string | undefined>;
};

/** What came back that the buyer did not write. */
const INCOMING_KINDS = {
  message: "",
  auto_reply: " · réponse automatique (absence, accusé de réception)",
  bounce: " · non remis : retour du serveur de messagerie",
} as const;

/** How an outgoing message stands in the outbox, in the team's words. */
function delivery(message: ConversationMessage): string {
  if (message.direction === "inbound") return "";
  if (message.mailStatus === "sent") return "envoyé";
  if (message.mailStatus === "failed") return `échec de l'envoi : ${message.mailError ?? ""}`;
  return message.mailError ? `nouvel essai prévu (${message.mailError})` : "en cours d'envoi";
}

function MessageItem({ message, buyer }: { message: ConversationMessage; buyer: string }) {
  const outbound = message.direction === "outbound";
  const Icon = outbound ? ArrowUpRight : ArrowDownLeft;
  return (
    <li className={outbound ? "rounded-md border p-3" : "rounded-md border bg-muted/50 p-3"}>
      <p className="text-xs text-muted-foreground">
        <Icon className="mr-1 inline size-3 align-[-0.125em]" aria-hidden="true" />
        <span className="font-medium text-foreground">{message.authorEmail || buyer}</span>
        {outbound ? ` à ${buyer}` : " au service commercial"} ·{" "}
        <time dateTime={isoDate(message.createdAt)}>{formatDateTime(message.createdAt)}</time>
        {outbound ? ` · ${delivery(message)}` : INCOMING_KINDS[message.kind]}
      </p>
      <p className="mt-1 text-sm font-medium">{message.subject}</p>
      <p className="mt-1 whitespace-pre-line break-words text-sm">{message.body}</p>
      <MessageFiles messageId={message.id} files={message.attachments} hasHtml={message.hasHtml} />
      {message.quoteNumber ? (
        <p className="mt-1 text-xs text-muted-foreground">
          Pièce jointe : devis {message.quoteNumber} (PDF)
        </p>
      ) : null}
    </li>
  );
}

/**
 * The request's conversation with its buyer (issue 40), oldest first, and the form that writes to
 * them: sent through the outbox, answering to the request's own address.
 */
export function Conversation({
  requestId,
  reference,
  buyer,
  messages,
  quote,
  templates,
  refused,
}: {
  requestId: number;
  reference: string;
  buyer: string;
  messages: ConversationMessage[];
  quote: { number: string } | undefined;
  /** `Modèles de réponse`, and the message `?modele=` started from one. */
  templates?: ReplyTemplateDraft;
  refused?: RefusedReply;
}) {
  const navigation = useNavigation();
  const sending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "reply";
  const errors = refused?.fieldErrors ?? {};
  const typed = refused?.values;
  const subject = replySubject(reference, messages.at(-1));
  // A sent message empties the form; a refused one is given back as typed; a template starts it.
  const formKey = typed
    ? `refused-${typed.subject}-${typed.body}`
    : `messages-${messages.length}-${templates?.chosenId ?? ""}`;

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <MessagesSquare className="size-5 text-primary" aria-hidden="true" /> Échanges avec le
          client
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        {messages.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Aucun message pour le moment : écrivez au client ci-dessous.
          </p>
        ) : (
          <ol className="space-y-3" aria-label="Échanges avec le client">
            {messages.map((message) => (
              <MessageItem key={message.id} message={message} buyer={buyer} />
            ))}
          </ol>
        )}
        {templates ? <ReplyTemplatePicker requestId={requestId} templates={templates} /> : null}
        <Form
          method="post"
          action={`/admin/contacts/${requestId}`}
          className="space-y-3"
          key={formKey}
          aria-label="Écrire au client"
        >
          <input type="hidden" name="intent" value="reply" />
          <Field id="reply-subject" label="Objet" error={errors.subject}>
            <Input
              name="subject"
              required
              maxLength={REPLY_SUBJECT_MAX}
              defaultValue={typed?.subject ?? subject}
            />
          </Field>
          <Field
            id="reply-body"
            label="Message"
            description={`Envoyé à ${buyer} ; sa réponse revient sur cette demande.`}
            error={errors.body}
          >
            <Textarea
              name="body"
              rows={6}
              required
              maxLength={REPLY_BODY_MAX}
              defaultValue={typed?.body ?? templates?.body ?? ""}
            />
          </Field>
          {quote ? (
            <label className="flex items-center gap-2 text-sm">
              <Checkbox name="attachQuote" defaultChecked={typed?.attachQuote === "on"} />
              Joindre le devis {quote.number} (PDF)
            </label>
          ) : null}
          <Button type="submit" disabled={sending}>
            Envoyer au client
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
