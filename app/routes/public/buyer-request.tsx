import { data, Form, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Textarea } from "~/components/ui/input";
import { formatDateTime } from "~/lib/dates";
import { firstFieldError } from "~/lib/field-errors";
import { cacheControl, retryAfter, SECRET_LINK_HEADERS } from "~/lib/http-headers";
import { retryInMinutes } from "~/lib/messages";
import { pageMeta } from "~/routes/public/meta";
import { useRootData } from "~/hooks/use-root-data";
import type { RouteHandle } from "~/root";
import {
  BUYER_MESSAGE_LIMIT,
  buyerMessageSchema,
} from "~/features/buyer-request/buyer-request-forms";
import {
  addBuyerMessage,
  buyerRequestPage,
  openQuoteFromRequest,
} from "~/features/buyer-request/buyer-request.server";
import { withDatabase } from "~/platform/availability.server";
import { assertMethod, parseForm, readForm } from "~/platform/form.server";
import { countRefusal } from "~/platform/metrics.server";
import type { Route } from "./+types/buyer-request";

// `Ma demande` (issue 42): the buyer's page of their request, opened by the secret link of the
// acknowledgement (or of `Retrouver ma demande`). Plain forms, post/redirect/get, no JavaScript.
// The token is cut out of the logs (log.server.ts), the page kept by no cache and no robot, and
// its address sent to no other site (SECRET_LINK_HEADERS, `same-origin`: see DESIGN.md).
export const handle: RouteHandle = { hydrate: false };

const HEADERS = { ...SECRET_LINK_HEADERS, ...cacheControl("private") };
const INVALID = "Ce lien de suivi n'est pas valide ou a été remplacé par un plus récent.";

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers(HEADERS);
  const wait = actionHeaders.get("Retry-After");
  if (wait) headers.set("Retry-After", wait);
  return headers;
};

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const page = await withDatabase("buyer request", context, () => buyerRequestPage(params.token), {
    headers: HEADERS,
  });
  const sent = new URL(request.url).searchParams.get("message") === "envoye";
  if (!page) return data({ page: null, sent: false }, { status: 404, headers: HEADERS });
  return data({ page, sent }, { headers: HEADERS });
}

type Failure = { error: string; description: string; message?: string; fieldError?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  assertMethod(request, "POST");
  const form = await readForm(request);
  const path = `/ma-demande/${params.token}`;
  if (form.get("intent") === "quote") {
    const quotePath = await withDatabase(
      "buyer request quote",
      context,
      () => openQuoteFromRequest(params.token),
      { headers: HEADERS },
    );
    if (!quotePath) {
      return data<Failure>(
        { error: "Devis indisponible", description: "Ce devis ne peut plus recevoir de réponse." },
        { status: 409, headers: HEADERS },
      );
    }
    throw redirect(quotePath, { status: 303, headers: HEADERS });
  }
  const submission = parseForm(form, buyerMessageSchema);
  const typed = String(form.get("message") ?? "").slice(0, BUYER_MESSAGE_LIMIT);
  if (!submission.success) {
    const fieldError = firstFieldError(submission.fieldErrors, "Message invalide.");
    return data<Failure>(
      { error: "Message non envoyé", description: fieldError, message: typed, fieldError },
      { status: 400, headers: HEADERS },
    );
  }
  const result = await withDatabase(
    "buyer message",
    context,
    () => addBuyerMessage(params.token, submission.data.message),
    { headers: HEADERS },
  );
  if (result.kind === "missing") {
    return data<Failure>(
      { error: "Message non envoyé", description: INVALID },
      { status: 404, headers: HEADERS },
    );
  }
  if (result.kind === "rate-limited") {
    countRefusal("buyer-message");
    return data<Failure>(
      {
        error: "Trop de messages",
        description: `Plusieurs messages ont été envoyés depuis cette page. ${retryInMinutes(result.retryAfterSeconds)}`,
        message: typed,
      },
      { status: 429, headers: { ...HEADERS, ...retryAfter(result.retryAfterSeconds) } },
    );
  }
  throw redirect(`${path}?message=envoye#messages`, { status: 303, headers: HEADERS });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Ma demande",
    description: "Suivre votre demande : statut, devis et échanges avec notre équipe.",
    noindex: true,
  });

const QUOTE_STATES: Record<string, string> = {
  open: "En attente de votre réponse",
  accepted: "Accepté",
  declined: "Refusé",
  replaced: "Remplacé par un devis plus récent",
  expired: "Expiré",
  draft: "En préparation",
};

export default function BuyerRequestPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, sent } = loaderData;
  const { site } = useRootData();
  if (!page) {
    return (
      <div className="container mx-auto max-w-xl space-y-4 px-4 py-10">
        <h1 className="text-3xl font-bold">Lien de suivi invalide</h1>
        <p>{INVALID} Vérifiez qu'il est complet : certaines messageries coupent les liens longs.</p>
        <p>
          <a className="text-primary underline" href="/ma-demande">
            Recevoir un nouveau lien
          </a>{" "}
          avec la référence de votre demande et votre adresse e-mail, ou écrivez-nous à{" "}
          <a className="text-primary underline" href={`mailto:${site.email}`}>
            {site.email}
          </a>
          .
        </p>
      </div>
    );
  }
  const failure = actionData;
  return (
    <div className="container mx-auto max-w-3xl space-y-6 px-4 py-10">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold">Ma demande {page.reference}</h1>
        <p className="text-muted-foreground">Envoyée le {formatDateTime(page.createdAt)}</p>
      </div>
      {failure ? <FormAlert title={failure.error} description={failure.description} /> : null}
      {sent && !failure ? (
        <FormAlert
          variant="success"
          title="Message envoyé"
          description="Notre équipe l'a reçu et vous répondra par e-mail."
        />
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle as="h2">Statut</CardTitle>
        </CardHeader>
        <CardContent>
          <p className="text-lg font-semibold" data-testid="request-status">
            {page.status}
          </p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h2">Offre demandée</CardTitle>
        </CardHeader>
        <CardContent className="space-y-2 text-sm">
          <p>{page.offer ? `${page.offer.title} (${page.offer.reference})` : "Demande générale"}</p>
          {page.configuration.length > 0 ? (
            <>
              <h3 className="font-semibold">Configuration choisie</h3>
              <ul className="list-disc pl-5">
                {page.configuration.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </>
          ) : null}
        </CardContent>
      </Card>
      {page.quote ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Devis {page.quote.number}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            <p>
              Envoyé le {formatDateTime(page.quote.sentAt)}
              {page.quote.validUntil
                ? `, valable jusqu'au ${formatDateTime(page.quote.validUntil)}`
                : ""}{" "}
              : {QUOTE_STATES[page.quote.state]}.
            </p>
            {page.quote.state === "open" ? (
              <Form method="post" className="space-y-2">
                <input type="hidden" name="intent" value="quote" />
                <Button type="submit">Consulter le devis</Button>
                <p className="text-muted-foreground">
                  Le devis s'ouvre par un nouveau lien : celui de l'e-mail du devis ne fonctionnera
                  plus.
                </p>
              </Form>
            ) : (
              <p className="text-muted-foreground">
                Le devis reste consultable par le lien de son e-mail.
              </p>
            )}
          </CardContent>
        </Card>
      ) : null}
      <Card id="messages">
        <CardHeader>
          <CardTitle as="h2">Échanges avec notre équipe</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {page.messages.length === 0 ? (
            <p className="text-sm text-muted-foreground">Aucun message pour l'instant.</p>
          ) : (
            <ol className="space-y-3">
              {page.messages.map((message) => (
                <li
                  key={message.id}
                  className={
                    message.direction === "inbound"
                      ? "ml-6 rounded-md border bg-muted/40 p-3"
                      : "mr-6 rounded-md border p-3"
                  }
                >
                  <p className="text-xs text-muted-foreground">
                    {message.direction === "inbound" ? "Vous" : site.name},{" "}
                    {formatDateTime(message.createdAt)}
                  </p>
                  <p className="whitespace-pre-wrap break-words text-sm">{message.body}</p>
                </li>
              ))}
            </ol>
          )}
          <Form method="post" className="space-y-3">
            <Field
              id="buyer-message"
              label="Votre message"
              error={failure?.fieldError}
              description={`${BUYER_MESSAGE_LIMIT} caractères au plus. Notre équipe vous répond par e-mail.`}
            >
              <Textarea
                name="message"
                required
                rows={5}
                maxLength={BUYER_MESSAGE_LIMIT}
                defaultValue={failure?.message}
              />
            </Field>
            <Button type="submit">Envoyer le message</Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
