import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/input";
import type { ReplyTemplateDraft } from "./reply-templates.server";

const MANAGE = "/admin/modeles";
const HINT = "reply-template-hint";

/**
 * `Utiliser ce modèle` above the message to the buyer: a GET form (`?modele=ID`), so that the page
 * itself, with or without JavaScript, comes back with the message started from the template, its
 * placeholders replaced by the server.
 */
export function ReplyTemplatePicker({
  requestId,
  templates,
}: {
  requestId: number;
  templates: ReplyTemplateDraft;
}) {
  if (templates.options.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        Aucun modèle de réponse pour le moment :{" "}
        <Link to={MANAGE} className="font-medium text-primary underline">
          créer un modèle
        </Link>
        .
      </p>
    );
  }
  return (
    <Form
      method="get"
      action={`/admin/contacts/${requestId}`}
      preventScrollReset
      className="space-y-2"
      aria-label="Partir d'un modèle de réponse"
    >
      <div className="flex flex-wrap items-end gap-3">
        <Field id="reply-template" label="Modèle de réponse" className="min-w-60 flex-1">
          <NativeSelect
            name="modele"
            defaultValue={templates.chosenId ?? undefined}
            key={templates.chosenId ?? "none"}
            aria-describedby={HINT}
          >
            {templates.options.map((option) => (
              <option key={option.id} value={option.id}>
                {option.title}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Button type="submit" variant="outline">
          Utiliser ce modèle
        </Button>
        <Link to={MANAGE} className="py-2 text-sm font-medium text-primary underline">
          Gérer les modèles
        </Link>
      </div>
      <p id={HINT} className="text-xs text-muted-foreground">
        Remplace le texte du message par celui du modèle, complété pour cette demande.
      </p>
    </Form>
  );
}
