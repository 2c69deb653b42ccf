import { data, Form, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, RequiredCheckbox } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Textarea } from "~/components/ui/input";
import { SignerFields } from "~/components/signer-fields";
import { formatDateTime } from "~/lib/dates";
import { firstFieldError } from "~/lib/field-errors";
import { SECRET_LINK_HEADERS } from "~/lib/http-headers";
import { pageMeta } from "~/routes/public/meta";
import { QUOTE_ANSWER_LIMITS, quoteAnswerSchema } from "~/features/quotes/quote-forms";
import { useRootData } from "~/hooks/use-root-data";
import type { RouteHandle } from "~/root";
import { withDatabase } from "~/platform/availability.server";
import { assertMethod, parseForm, readForm } from "~/platform/form.server";
import { journal } from "~/platform/journal.server";
import { log } from "~/platform/log.server";
import { answerQuote } from "~/features/quotes/quote-answer.server";
import { buyerLeaseFile } from "~/features/lease-file/lease-file.server";
import { receiveLeaseDocuments } from "~/features/lease-file/document-upload.server";
import { LeaseFileSection } from "~/features/lease-file/lease-file-section";
import { buyerDelivery } from "~/features/lease-file/delivery-report.server";
import { deliveryReportAction } from "~/features/lease-file/delivery-report-action.server";
import { DeliveryReportSection } from "~/features/lease-file/delivery-report-section";
import { quotePage } from "~/features/quotes/quote-page.server";
import type { QuoteState } from "~/features/quotes/quote-sending.server";
import type { Route } from "./+types/quote";

// The buyer's page of a sent quote (issue 29): the quote as a page and as its PDF, and two answers
// that post normally (no JavaScript): `Bon pour accord` and `Refuser`, each confirmed by a box the
// browser requires and the server checks again. A quote answers once; once accepted, its PDF is
// the one signed and the page shows its SHA-256 (issue 40).
export const handle: RouteHandle = { hydrate: false };

export const headers: Route.HeadersFunction = () => SECRET_LINK_HEADERS;
const INVALID = "Ce lien de devis n'est pas valide.";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Only a page opened counts as the buyer's opening (issue 40), not one shown again after a post:
  // React Router runs the loaders then with a GET copy of the post, its headers kept.
  const opened = request.method === "GET" && !request.headers.has("content-type");
  const viewer = { userAgent: request.headers.get("user-agent"), opened };
  // Database unreachable: the French 503 page, as every public page.
  const page = await withDatabase("quote page", context, () => quotePage(params.token, viewer), {
    headers: SECRET_LINK_HEADERS,
  });
  // A link cut by a mail client, or mistyped: a page that says so, not the site's bare 404.
  if (page.kind === "missing")
    return data(
      { page: null, token: "", leaseFile: undefined, delivery: null },
      { status: 404, headers: SECRET_LINK_HEADERS },
    );
  // An accepted LOA goes on with its file (issue 41), on this same page.
  const { contactRequestId, ...shown } = page;
  const leaseFile = page.state === "accepted" ? await buyerLeaseFile(contactRequestId) : undefined;
  // Once delivered, the delivery report to sign, then signed (issue 41).
  const delivery = leaseFile ? await buyerDelivery(contactRequestId) : null;
  return data(
    { page: shown, token: params.token, leaseFile, delivery },
    { headers: SECRET_LINK_HEADERS },
  );
}

/** Why a quote no longer takes an answer, as the page says it. */
const REFUSALS: Record<Exclude<QuoteState, "open" | "draft">, string> = {
  accepted: "Ce devis a déjà été accepté : il ne peut recevoir qu'une réponse.",
  declined: "Ce devis a déjà été refusé : il ne peut recevoir qu'une réponse.",
  replaced:
    "Ce devis a été remplacé par un nouveau devis, envoyé par e-mail : répondez à celui-ci.",
  expired: "Ce devis a expiré : contactez-nous pour en recevoir un nouveau.",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  // React Router calls actions for PUT, PATCH and DELETE too: an answer is a form's POST only.
  assertMethod(request, "POST");
  // The LOA file's documents (issue 41): a multipart post, streamed within its limits.
  if (isMultipart(request)) {
    const outcome = await withDatabase(
      "lease documents",
      context,
      () => receiveLeaseDocuments(request, params.token),
      { headers: SECRET_LINK_HEADERS },
    );
    if (outcome.kind === "refused") {
      // The connection stays open: the HTTP layer drops the body's unread rest after the answer
      // (http-server/request-body.ts); closing it would reset a client that is still sending.
      return data(
        { error: "Document refusé", description: outcome.message, upload: true },
        { status: outcome.status, headers: SECRET_LINK_HEADERS },
      );
    }
    log.info("lease documents received", { requestId: context.requestId, count: outcome.count });
    throw redirect(`/devis/${params.token}?document=recu#dossier`, {
      status: 303,
      headers: SECRET_LINK_HEADERS,
    });
  }
  const form = await readForm(request);
  // `Signer le PV de livraison` of an LOA's file (issue 41).
  if (form.get("intent") === "delivery-report") {
    return deliveryReportAction(request, form, params.token, context);
  }
  const submission = parseForm(form, quoteAnswerSchema);
  if (!submission.success) {
    const { fieldErrors } = submission;
    const error = "Réponse incomplète";
    return data(
      {
        error,
        description: firstFieldError(fieldErrors, error),
        fieldErrors,
        values: submission.values,
      },
      { status: 400, headers: SECRET_LINK_HEADERS },
    );
  }
  const input = submission.data;
  const answer =
    input.intent === "accept"
      ? ({ kind: "accept", name: input.name, role: input.role } as const)
      : ({ kind: "decline", reason: input.reason } as const);
  const client = { ip: context.clientIp, userAgent: request.headers.get("user-agent") ?? "" };
  const outcome = await withDatabase(
    "quote answer",
    context,
    () => answerQuote(params.token, answer, client),
    { headers: SECRET_LINK_HEADERS },
  );
  if (outcome.kind === "missing") {
    // The loader's page says why (the same link, read again).
    return data(
      { error: "Réponse refusée", description: INVALID },
      { status: 404, headers: SECRET_LINK_HEADERS },
    );
  }
  if (outcome.kind === "refused") {
    return data(
      { error: "Réponse refusée", description: REFUSALS[outcome.state] },
      { status: 409, headers: SECRET_LINK_HEADERS },
    );
  }
  log.info(`quote ${outcome.kind}`, { requestId: context.requestId, number: outcome.number });
  await journal.record(context, {
    actor: null,
    action: outcome.kind === "accepted" ? "quote-accepted" : "quote-declined",
    target: outcome.number,
  });
  throw redirect(`/devis/${params.token}`, { status: 303, headers: SECRET_LINK_HEADERS });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Votre devis",
    description: "Consulter, accepter ou refuser votre devis.",
    noindex: true,
  });

/** A multipart body: the LOA file's upload form. */
function isMultipart(request: Request): boolean {
  return (request.headers.get("content-type") ?? "")
    .toLowerCase()
    .startsWith("multipart/form-data");
}

export default function QuotePage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, token, leaseFile, delivery } = loaderData;
  const { site } = useRootData();
  if (!page) {
    return (
      <div className="container mx-auto max-w-xl space-y-4 px-4 py-10">
        <h1 className="text-3xl font-bold">Lien de devis invalide</h1>
        <p>
          {INVALID} Vérifiez qu'il est complet : certaines messageries coupent les liens longs.
          Copiez-le en entier depuis l'e-mail, ou écrivez-nous à{" "}
          <a className="text-primary underline" href={`mailto:${site.email}`}>
            {site.email}
          </a>{" "}
          en rappelant le numéro du devis.
        </p>
      </div>
    );
  }
  const { document, state } = page;
  const values = (actionData && "values" in actionData ? actionData.values : undefined) as
    Record<string, string> | undefined;
  const errors = (
    actionData && "fieldErrors" in actionData ? actionData.fieldErrors : {}
  ) as Record<string, string | undefined>;
  return (
    <div className="container mx-auto max-w-4xl space-y-6 px-4 py-10">
      <h1 className="text-3xl font-bold">Devis {document.number}</h1>
      {actionData && !("upload" in actionData) ? (
        <FormAlert variant="error" title={actionData.error} description={actionData.description} />
      ) : null}
      <StateNotice state={state} page={page} />
      {delivery ? (
        <DeliveryReportSection delivery={delivery} token={token} errors={errors} values={values} />
      ) : null}
      {leaseFile ? (
        <LeaseFileSection
          file={leaseFile}
          refused={actionData && "upload" in actionData ? actionData.description : undefined}
        />
      ) : null}
      {state === "accepted" && page.signedSha256 ? (
        <p className="text-sm">
          Empreinte SHA-256 du PDF accepté, conservé tel quel :{" "}
          <code className="break-all font-mono text-xs">{page.signedSha256}</code>
        </p>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle as="h2">{document.offer}</CardTitle>
          <p className="text-sm text-muted-foreground">
            Émis le {document.issued} par {document.seller.name} — valable jusqu'au{" "}
            {document.validUntil}
          </p>
        </CardHeader>
        <CardContent className="space-y-5 text-sm">
          {document.accepted ? (
            <p className="font-semibold text-primary">{document.accepted}</p>
          ) : null}
          {document.customer ? (
            <div>
              <h3 className="font-semibold">Adressé à</h3>
              {document.customer.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
          ) : null}
          <table className="w-full text-left">
            <caption className="sr-only">Lignes du devis</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-2">
                  Désignation
                </th>
                <th scope="col" className="py-2 text-right">
                  Mensuel HT
                </th>
                <th scope="col" className="py-2 text-right">
                  Mise en service HT
                </th>
              </tr>
            </thead>
            <tbody>
              {document.rows.map((row) => (
                <tr key={`${row.label}-${row.detail}`} className="border-b">
                  <td className="py-2">
                    <span className="font-medium">{row.label}</span>
                    <br />
                    <span className="text-muted-foreground">{row.detail}</span>
                  </td>
                  <td className="py-2 text-right">{row.monthly}</td>
                  <td className="py-2 text-right">{row.setup}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="ml-auto grid max-w-md grid-cols-[1fr_auto] gap-x-6 gap-y-1">
            {[...document.totals, ...(document.lease ?? [])].map((figure) => (
              <div key={figure.label} className="contents">
                <dt className={figure.strong ? "font-semibold" : undefined}>{figure.label}</dt>
                <dd className={figure.strong ? "text-right font-semibold" : "text-right"}>
                  {figure.value}
                </dd>
              </div>
            ))}
          </dl>
          {document.notes.map((note) => (
            <p key={note} className="text-muted-foreground">
              {note}
            </p>
          ))}
          <p>
            <a className="text-primary underline" href={`/devis/${token}/pdf`}>
              {state === "accepted"
                ? "Télécharger le devis accepté (PDF)"
                : "Télécharger le devis (PDF)"}
            </a>
          </p>
        </CardContent>
      </Card>
      {state === "open" ? (
        <div className="grid gap-6 md:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Bon pour accord</CardTitle>
            </CardHeader>
            <CardContent>
              <Form method="post" className="space-y-4">
                <input type="hidden" name="intent" value="accept" />
                {page.validUntil ? (
                  <p className="text-sm text-muted-foreground">
                    Vous pouvez répondre jusqu'au {formatDateTime(page.validUntil)}.
                  </p>
                ) : null}
                <SignerFields
                  idPrefix="quote"
                  limits={QUOTE_ANSWER_LIMITS}
                  errors={errors}
                  values={values}
                />
                <RequiredCheckbox id="quote-agree" name="agree" error={errors.agree}>
                  J'accepte ce devis et les{" "}
                  <a className="text-primary underline" href={page.terms.url}>
                    conditions générales de vente
                  </a>
                  {page.terms.version ? ` (version ${page.terms.version})` : ""}.
                </RequiredCheckbox>
                <p className="text-xs text-muted-foreground">
                  Votre acceptation en ligne vaut signature électronique simple (règlement eIDAS) :
                  nous conservons le PDF accepté et son empreinte (SHA-256), avec votre nom, votre
                  fonction, la date, votre adresse IP et votre navigateur, pendant la durée légale
                  de conservation des documents commerciaux.
                </p>
                <Button type="submit">Bon pour accord</Button>
              </Form>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle as="h2">Refuser</CardTitle>
            </CardHeader>
            <CardContent>
              <Form method="post" className="space-y-4">
                <input type="hidden" name="intent" value="decline" />
                <Field id="quote-reason" label="Motif (facultatif)" error={errors.reason}>
                  <Textarea
                    name="reason"
                    rows={4}
                    maxLength={QUOTE_ANSWER_LIMITS.reason}
                    defaultValue={values?.reason}
                  />
                </Field>
                <RequiredCheckbox id="quote-confirm" name="confirm" error={errors.confirm}>
                  Je confirme refuser ce devis : ce refus est définitif.
                </RequiredCheckbox>
                <Button type="submit" variant="outline">
                  Refuser
                </Button>
              </Form>
            </CardContent>
          </Card>
        </div>
      ) : null}
    </div>
  );
}

function StateNotice({
  state,
  page,
}: {
  state: QuoteState;
  page: { acceptedAt: Date | null; declinedAt: Date | null; validUntil: Date | null };
}) {
  if (state === "accepted") {
    return (
      <FormAlert
        variant="success"
        title="Devis accepté"
        description={`Votre bon pour accord du ${page.acceptedAt ? formatDateTime(page.acceptedAt) : ""} est enregistré. Notre équipe revient vers vous.`}
      />
    );
  }
  if (state === "declined") {
    return (
      <FormAlert
        variant="success"
        title="Devis refusé"
        description={`Votre refus du ${page.declinedAt ? formatDateTime(page.declinedAt) : ""} est enregistré.`}
      />
    );
  }
  if (state === "replaced") {
    return (
      <FormAlert
        variant="error"
        title="Devis remplacé"
        description="Ce devis a été remplacé par un nouveau devis, envoyé par e-mail : répondez à celui-ci."
      />
    );
  }
  if (state === "expired") {
    return (
      <FormAlert
        variant="error"
        title="Devis expiré"
        description="Ce devis n'est plus valable : contactez-nous pour en recevoir un nouveau."
      />
    );
  }
  return null;
}
