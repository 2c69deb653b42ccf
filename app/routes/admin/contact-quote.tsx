import { Send } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { BackLink } from "~/components/ui/back-link";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import { formatDateTime } from "~/lib/dates";
import { firstFieldError } from "~/lib/field-errors";
import { MESSAGES } from "~/lib/messages";
import { discountField, quoteSendInput, quoteSendSchema } from "~/features/quotes/quote-forms";
import {
  DEFAULT_QUOTE_VALIDITY_DAYS,
  QUOTE_STATE_LABELS,
  QUOTE_VALIDITY_MAX_DAYS,
} from "~/lib/quote";
import { companyLine } from "~/lib/siren";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import {
  actionDone,
  actionFailure,
  assertMethod,
  idSchema,
  readForm,
} from "~/platform/form.server";
import { log } from "~/platform/log.server";
import { quoteDraft, sendQuote } from "~/features/quotes/quote-sending.server";
import type { Route } from "./+types/contact-quote";

// `Envoyer le devis` (issue 29): the request's quote with a validity and per-row discounts,
// mailed to the requester with its PDF and a personal link to answer it.

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Envoyer le devis");

const notFound = () =>
  data({ message: MESSAGES.notFound }, { status: 404, headers: PRIVATE_HEADERS });

const NO_OFFER = "Cette demande ne porte sur aucune offre à chiffrer : pas de devis possible.";
/** Sending over an accepted quote: a signed order is not replaced by a new quote (issue 40). */
const signedOrder = (number: string) =>
  `Le devis ${number} a été accepté par le client : c'est une commande signée, qu'un nouveau devis ne remplace pas. Pour la modifier, convenez-en avec le client hors du site.`;
const SEND_FAILED = "Le devis n'a pas été envoyé";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request, "contacts");
  const id = idSchema.safeParse(params.id);
  if (!id.success) throw notFound();
  const draft = await quoteDraft(id.data);
  if (draft.kind === "missing") throw notFound();
  return { id: id.data, draft };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "contacts");
  // React Router calls actions for PUT, PATCH and DELETE too: a PUT must not mail a quote.
  assertMethod(request, "POST");
  const id = idSchema.safeParse(params.id);
  if (!id.success) throw notFound();
  const submission = await readForm(request, quoteSendSchema);
  if (!submission.success) {
    const { fieldErrors } = submission;
    return actionFailure(400, {
      error: SEND_FAILED,
      description: firstFieldError(fieldErrors, SEND_FAILED),
      fieldErrors,
      values: submission.values,
    });
  }
  const result = await sendQuote(id.data, quoteSendInput(submission.data), user);
  if (result.kind === "missing") throw notFound();
  if (result.kind === "no-offer")
    return actionFailure(409, { error: SEND_FAILED, description: NO_OFFER });
  if (result.kind === "signed")
    return actionFailure(409, { error: SEND_FAILED, description: signedOrder(result.number) });
  log.info("quote sent", {
    requestId: context.requestId,
    contactId: id.data,
    number: result.number,
  });
  return actionDone(request, context, "quoteSent", `/admin/contacts/${id.data}`, {
    actor: user,
    action: "quote-sent",
    target: result.replaced ? `${result.number} (remplace ${result.replaced})` : result.number,
  });
}

export default function ContactQuote({ loaderData, actionData }: Route.ComponentProps) {
  const { id, draft } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const values = actionData?.values as Record<string, string> | undefined;
  const errors = (actionData?.fieldErrors ?? {}) as Record<string, string | undefined>;
  return (
    <div className="space-y-6">
      <BackLink to={`/admin/contacts/${id}`}>Retour à la demande</BackLink>
      <h1 className="text-2xl font-bold">Envoyer le devis</h1>
      <ActionFailureAlert answer={actionData} always />
      {draft.kind === "no-offer" ? (
        <p>{NO_OFFER}</p>
      ) : draft.current?.state === "accepted" ? (
        <p>{signedOrder(draft.current.number)}</p>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Devis pour {draft.customer.name}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-5">
            <p className="text-sm text-muted-foreground">
              {companyLine(draft.customer.company, draft.customer.siren) ??
                "Société non renseignée"}
            </p>
            {draft.current ? (
              <p className="text-sm">
                Devis actuel : {draft.current.number}, {QUOTE_STATE_LABELS[draft.current.state]}
                {draft.current.sentAt ? ` (envoyé le ${formatDateTime(draft.current.sentAt)})` : ""}
                .{" "}
                {draft.current.sentAt
                  ? "Un nouvel envoi le remplace : son lien l'indiquera."
                  : "Il est envoyé sous ce numéro."}
              </p>
            ) : null}
            <Form method="post" className="space-y-5">
              <Field
                id="quote-validity"
                label="Validité (jours)"
                error={errors.validity}
                description={`${DEFAULT_QUOTE_VALIDITY_DAYS} jours par défaut ; le lien de réponse expire avec le devis.`}
              >
                <Input
                  name="validity"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={QUOTE_VALIDITY_MAX_DAYS}
                  defaultValue={values?.validity ?? String(DEFAULT_QUOTE_VALIDITY_DAYS)}
                  required
                />
              </Field>
              <fieldset className="space-y-3">
                <legend className="text-sm font-medium">Remises sur le mensuel (%)</legend>
                {draft.rows.map((row, i) => (
                  <Field
                    key={row}
                    id={`quote-${discountField(i)}`}
                    label={`Remise : ${row}`}
                    error={errors[discountField(i)]}
                  >
                    <Input
                      name={discountField(i)}
                      inputMode="decimal"
                      defaultValue={values?.[discountField(i)] ?? "0"}
                    />
                  </Field>
                ))}
              </fieldset>
              <Button type="submit" disabled={busy}>
                <Send aria-hidden="true" /> Envoyer le devis
              </Button>
            </Form>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
