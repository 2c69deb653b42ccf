import { Download, Search, Trash2 } from "lucide-react";
import { companyLine } from "~/lib/siren";
import { useState, type ReactNode } from "react";
import { data, Form, useLocation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Input } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import { CONTACT_STATUS_LABELS } from "~/lib/domain";
import { formatDateTime, isoDate, pluralize } from "~/lib/format";
import { CONTACT_LIMITS } from "~/lib/limits";
import { QUOTE_STATE_LABELS } from "~/lib/quote";
import { SIGNED_DOCUMENT_LABELS } from "~/platform/signed-documents";
import {
  erasureFormSchema,
  firstIssue,
  personalDataEmailSchema,
} from "~/features/privacy/personal-data";
import { useHydrated } from "~/hooks/use-hydrated";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { confirmIdentity, recentlyAuthenticated } from "~/features/accounts/own-credentials.server";
import { withDatabase } from "~/platform/availability.server";
import {
  actionFailure,
  actionDone,
  assertMethod,
  parseForm,
  readForm,
} from "~/platform/form.server";
import { ConfirmIdentity } from "~/features/accounts/confirm-identity";
import { confirmIdentityUrl, identityAnswer } from "./confirm-identity.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import {
  addressToken,
  erasePersonalData,
  findPersonalData,
  type PersonalDataCounts,
  type PersonalData,
} from "~/features/privacy/personal-data.server";
import { journal } from "~/platform/journal.server";
import type { Route } from "./+types/personal-data";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Données personnelles");

type LoaderData =
  | {
      email: string;
      error: null;
      result: PersonalData | null;
      exportHref?: string;
      signedYears?: number;
    }
  | { email: string; error: string; result: null };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "admin");
  const raw = new URL(request.url).searchParams.get("email");
  if (raw === null) return { email: "", error: null, result: null } satisfies LoaderData;
  // The export asks `Confirmez votre identité` first when the session is not recent.
  const exportHref = (email: string) => {
    const path = `/admin/personal-data/export?email=${encodeURIComponent(email)}`;
    return recentlyAuthenticated(session) ? path : confirmIdentityUrl(path);
  };
  const parsed = personalDataEmailSchema.safeParse(raw);
  if (!parsed.success) {
    return data<LoaderData>(
      { email: raw.slice(0, CONTACT_LIMITS.email), error: firstIssue(parsed.error), result: null },
      { status: 400, headers: PRIVATE_HEADERS },
    );
  }
  const result = await withDatabase("personal data lookup", context, () =>
    findPersonalData(parsed.data),
  );
  // The person is named by the keyed hash of the logs, never by the address.
  await journal.record(context, {
    actor: session.user,
    action: "personal-data-viewed",
    target: `personne ${await addressToken(parsed.data)}`,
  });
  return {
    email: parsed.data,
    error: null,
    result,
    exportHref: exportHref(parsed.data),
    signedYears: env().SIGNED_QUOTE_RETENTION_YEARS,
  } satisfies LoaderData;
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireAdmin(request, "admin");
  assertMethod(request, "POST");
  const form = await readForm(request);
  const parsed = parseForm(form, erasureFormSchema);
  if (!parsed.success) {
    // Shown under the search form, where the address is typed: one sentence, no toast.
    return actionFailure(400, { error: firstIssue(parsed.error) });
  }
  const { email, confirm } = parsed.data;
  if (!confirm) {
    // Without JavaScript the confirmation is a page of its own, with what would be erased.
    const { counts } = await withDatabase("personal data lookup", context, () =>
      findPersonalData(email),
    );
    return data({ status: "confirm" as const, email, counts }, { headers: PRIVATE_HEADERS });
  }
  const unconfirmed = identityAnswer(await confirmIdentity(session, form), form);
  if (unconfirmed) return unconfirmed;
  // The erasure and its journal entry are one transaction.
  const { subject, counts, kept } = await withDatabase("personal data erasure", context, () =>
    erasePersonalData(email, { context, actor: session.user }),
  );
  // That it happened and how much went, never the address: a keyed hash names it.
  log.info("personal data erased", {
    requestId: context.requestId,
    subject,
    ...counts,
    signedDocumentsKept: kept.length,
  });
  // What the law keeps is shown again, on the address's page, under the toast that says so.
  if (kept.length > 0) {
    const to = `/admin/personal-data?email=${encodeURIComponent(email)}`;
    return actionDone(request, context, "personalDataErasedSignedKept", to, null);
  }
  return actionDone(request, context, "personalDataErased", "/admin/personal-data", null);
}

/** What an erasure keeps, as the page says it (issue 40). */
function keptText(signed: number, years: number): string {
  return `${signed} ${pluralize(signed, "devis signé est conservé", "devis signés sont conservés")} ${years} ans à compter de la signature (durée légale de conservation des documents commerciaux) : l'effacement ne les supprime pas`;
}

function countsText(counts: Omit<PersonalDataCounts, "signedDocuments">): string {
  return [
    `${counts.requests} ${pluralize(counts.requests, "demande", "demandes")}`,
    `${counts.notes} ${pluralize(counts.notes, "note", "notes")}`,
    `${counts.statusChanges} ${pluralize(counts.statusChanges, "changement de statut", "changements de statut")}`,
    `${counts.mails} ${pluralize(counts.mails, "e-mail", "e-mails")}`,
    `${counts.quotes} devis`,
    `${counts.messages} ${pluralize(counts.messages, "message échangé", "messages échangés")}`,
    `${counts.documents} ${pluralize(counts.documents, "pièce de dossier LOA", "pièces de dossier LOA")}`,
    `${counts.alerts} ${pluralize(counts.alerts, "alerte de disponibilité", "alertes de disponibilité")}`,
  ].join(", ");
}

/** The state of an availability alert (issue 30), in a few words. */
function alertState(alert: PersonalData["alerts"][number]) {
  if (alert.notifiedAt)
    return (
      <>
        prévenue le <When date={alert.notifiedAt} />
      </>
    );
  if (alert.confirmedAt)
    return (
      <>
        confirmée le <When date={alert.confirmedAt} />, en attente
      </>
    );
  return <>non confirmée</>;
}

const MAIL_STATUS_LABELS = { pending: "en attente", sent: "envoyé", failed: "échec" } as const;

function When({ date }: { date: Date }) {
  return <time dateTime={isoDate(date)}>{formatDateTime(date)}</time>;
}

function RequestCard({ request }: { request: PersonalData["requests"][number] }) {
  return (
    <Card>
      <CardHeader className="space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle as="h3" className="text-lg">
            Demande n° {request.id} — {request.name}
          </CardTitle>
          <Badge variant="secondary">{CONTACT_STATUS_LABELS[request.status]}</Badge>
          {request.suspectedSpam ? <Badge variant="outline">Spam présumé</Badge> : null}
        </div>
        <p className="text-sm text-muted-foreground">
          Reçue le <When date={request.createdAt} /> · dernière activité le{" "}
          <When date={request.updatedAt} />
        </p>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">Email</dt>
          <dd>{request.email}</dd>
          <dt className="font-medium">Téléphone</dt>
          <dd>{request.phone ?? "—"}</dd>
          <dt className="font-medium">Société</dt>
          <dd>{companyLine(request.company, request.siren) ?? "—"}</dd>
          <dt className="font-medium">Offre</dt>
          <dd>{request.offerTitle ? `${request.offerTitle} (${request.offerReference})` : "—"}</dd>
        </dl>
        <p className="whitespace-pre-line rounded-md bg-muted/50 p-4">{request.message}</p>
        <RowList
          title="Notes internes"
          label={`Notes de la demande ${request.id}`}
          rows={request.notes}
          spaced
        >
          {(note) => (
            <li key={note.id} className="rounded-md border p-3">
              <p className="text-muted-foreground">
                {note.authorEmail}, <When date={note.createdAt} />
              </p>
              <p className="whitespace-pre-line">{note.body}</p>
            </li>
          )}
        </RowList>
        <RowList
          title="Historique"
          label={`Historique de la demande ${request.id}`}
          rows={request.statusChanges}
        >
          {(change) => (
            <li key={change.id}>
              <When date={change.createdAt} /> : {CONTACT_STATUS_LABELS[change.fromStatus]} →{" "}
              {CONTACT_STATUS_LABELS[change.toStatus]} ({change.authorEmail})
            </li>
          )}
        </RowList>
        <RowList title="Devis" label={`Devis de la demande ${request.id}`} rows={request.quotes}>
          {(quote) => (
            <li key={quote.id}>
              {quote.number} : {QUOTE_STATE_LABELS[quote.state]}
              {quote.acceptedAt && quote.acceptance ? (
                <>
                  {" "}
                  le <When date={quote.acceptedAt} /> par {quote.acceptance.name} (
                  {quote.acceptance.role}), adresse {quote.acceptance.ip}
                </>
              ) : null}
            </li>
          )}
        </RowList>
        <RowList
          title="Échanges avec le client"
          label={`Messages de la demande ${request.id}`}
          rows={request.messages}
          spaced
        >
          {(message) => (
            <li key={message.id} className="rounded-md border p-3">
              <p className="text-muted-foreground">
                {message.direction === "outbound"
                  ? `${message.authorEmail} au client`
                  : "Le client"}
                , <When date={message.createdAt} />
              </p>
              <p className="font-medium">{message.subject}</p>
              <p className="whitespace-pre-line">{message.body}</p>
            </li>
          )}
        </RowList>
        <RowList title="E-mails" label={`E-mails de la demande ${request.id}`} rows={request.mails}>
          {(mail) => (
            <li key={mail.id}>
              Notification de <When date={mail.createdAt} /> : {MAIL_STATUS_LABELS[mail.status]}
              {mail.sentAt ? (
                <>
                  {" "}
                  le <When date={mail.sentAt} />
                </>
              ) : null}
            </li>
          )}
        </RowList>
      </CardContent>
    </Card>
  );
}

/** The documents the person signed (issue 40): kept apart from the requests, never erased. */
function SignedDocumentList({ documents }: { documents: PersonalData["signedDocuments"] }) {
  return (
    <section aria-label="Documents signés conservés" className="space-y-2">
      <h3 className="text-lg font-semibold">Documents signés conservés ({documents.length})</h3>
      <ul className="space-y-2">
        {documents.map((document) => (
          <li key={document.id} className="rounded-lg border bg-background p-4 text-sm">
            {SIGNED_DOCUMENT_LABELS[document.kind]} {document.reference}, signé le{" "}
            <When date={document.signedAt} /> par {document.acceptance.name} (
            {document.acceptance.role}) —{" "}
            <a
              className="text-primary underline"
              href={`/admin/signed-documents/${document.id}/pdf`}
            >
              PDF signé ({document.pdfBytes} octets)
            </a>
            , SHA-256 <code className="break-all font-mono text-xs">{document.pdfSha256}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One kind of row attached to a request (notes, history, quotes, mails), counted, listed. */
function RowList<T>(props: {
  title: string;
  label: string;
  rows: T[];
  spaced?: boolean;
  children: (row: T) => ReactNode;
}) {
  const { title, rows } = props;
  return (
    <section aria-label={props.label}>
      <h4 className="font-semibold">
        {title} ({rows.length})
      </h4>
      {rows.length ? (
        <ul className={props.spaced ? "mt-1 space-y-2" : "mt-1 space-y-1"}>
          {rows.map(props.children)}
        </ul>
      ) : null}
    </section>
  );
}

export default function AdminPersonalData({
  loaderData,
  actionData: answer,
}: Route.ComponentProps) {
  const reauth = answer && "reauth" in answer ? answer.reauth : undefined;
  const actionData = answer && !("reauth" in answer) ? answer : undefined;
  const { email, error, result } = loaderData;
  const hydrated = useHydrated();
  // The dialog belongs to the page it was opened on: any navigation (the redirect after the
  // erasure, a new search) closes it.
  const location = useLocation();
  const [confirmingOn, setConfirmingOn] = useState<string | null>(null);
  const confirming = confirmingOn === location.key;
  const setConfirming = (open: boolean) => setConfirmingOn(open ? location.key : null);
  const formError = actionData && "error" in actionData ? actionData.error : error;
  const confirmation = actionData && "counts" in actionData ? actionData : undefined;
  const asked = confirmation ?? (hydrated && result ? { email, counts: result.counts } : undefined);
  // The messages count the stray ones too (issue 40: written to the mailbox, no request found).
  const erasable = result
    ? result.counts.requests + result.counts.alerts + result.counts.messages > 0
    : false;
  const found = erasable || (result?.counts.signedDocuments ?? 0) > 0;
  const signedYears = ("signedYears" in loaderData ? loaderData.signedYears : undefined) ?? 10;
  const keptSentence = (n: number) => (n > 0 ? ` ${keptText(n, signedYears)}.` : "");

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">Données personnelles</h1>
        {reauth ? (
          <ConfirmIdentity
            action="/admin/personal-data"
            reauth={reauth}
            cancelTo="/admin/personal-data"
          />
        ) : null}
        <p className="max-w-3xl text-muted-foreground">
          Tout ce que le site conserve sur une adresse e-mail (demandes, notes, historique, e-mails,
          devis signés), pour répondre à une demande d'accès, de portabilité ou d'effacement (RGPD,
          articles 15, 17 et 20). Les devis signés sont conservés pour leur durée légale, même après
          un effacement. La recherche ignore les majuscules.
        </p>
      </div>

      <Form
        method="get"
        action="/admin/personal-data"
        className="flex flex-wrap items-end gap-3"
        aria-label="Rechercher une personne"
      >
        <Field id="personal-data-email" label="Adresse e-mail">
          <Input
            name="email"
            type="email"
            required
            className="w-80"
            maxLength={CONTACT_LIMITS.email}
            defaultValue={email}
            key={email}
            // Its error is the alert under the form (from the search or from an erasure).
            aria-invalid={formError ? true : undefined}
            aria-describedby={formError ? "personal-data-error" : undefined}
          />
        </Field>
        <Button type="submit">
          <Search aria-hidden="true" /> Rechercher
        </Button>
      </Form>

      {formError ? <FormAlert id="personal-data-error">{formError}</FormAlert> : null}

      {/* With JavaScript 'Tout effacer' opens the dialog; without, it posts and the answer asks. */}
      {asked ? (
        <ConfirmDialog
          open={!reauth && (confirmation !== undefined || confirming)}
          inline={confirmation ? true : undefined}
          id="confirm-erase"
          title={`Effacer toutes les données de ${asked.email} ?`}
          description={`Seront supprimés définitivement : ${countsText(asked.counts)}. Cette action est irréversible.${keptSentence(asked.counts.signedDocuments)}`}
          cancelTo={`/admin/personal-data?email=${encodeURIComponent(asked.email)}`}
          onCancel={() => setConfirming(false)}
          action="/admin/personal-data"
          fields={{ intent: "erase", email: asked.email, confirm: "yes" }}
          confirmLabel={
            <>
              <Trash2 aria-hidden="true" /> Confirmer l'effacement
            </>
          }
        />
      ) : null}

      {result && !confirmation ? (
        <section aria-labelledby="personal-data-result" className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-4">
            <h2 id="personal-data-result" className="text-xl font-semibold">
              Données conservées pour {email}
            </h2>
            {found ? (
              <div className="flex flex-wrap gap-3">
                <Button asChild variant="outline">
                  <a href={loaderData.exportHref}>
                    <Download aria-hidden="true" /> Exporter (JSON)
                  </a>
                </Button>
                {erasable ? (
                  <Form method="post" action="/admin/personal-data">
                    <input type="hidden" name="intent" value="erase" />
                    <input type="hidden" name="email" value={email} />
                    <Button
                      type={hydrated ? "button" : "submit"}
                      variant="destructive"
                      onClick={hydrated ? () => setConfirming(true) : undefined}
                    >
                      <Trash2 aria-hidden="true" /> Tout effacer
                    </Button>
                  </Form>
                ) : null}
              </div>
            ) : null}
          </div>
          {!found ? (
            <p className="rounded-lg border border-dashed bg-background p-8 text-center text-muted-foreground">
              Aucune donnée n'est conservée pour cette adresse.
            </p>
          ) : (
            <>
              <p>
                {countsText(result.counts)}.{keptSentence(result.counts.signedDocuments)}
              </p>
              <p className="text-sm text-muted-foreground">
                L'effacement ne touche ni les e-mails déjà reçus par l'équipe commerciale (à
                supprimer de ses boîtes) ni les sauvegardes, qui expirent d'elles-mêmes.
              </p>
              <ul className="space-y-4" aria-label="Demandes de cette personne">
                {result.requests.map((request) => (
                  <li key={request.id}>
                    <RequestCard request={request} />
                  </li>
                ))}
              </ul>
              {result.signedDocuments.length > 0 ? (
                <SignedDocumentList documents={result.signedDocuments} />
              ) : null}
              {result.unattachedMessages.length > 0 ? (
                <ul
                  className="space-y-2"
                  aria-label="Messages reçus non rattachés de cette personne"
                >
                  {result.unattachedMessages.map((message) => (
                    <li key={message.id} className="rounded-lg border bg-background p-4 text-sm">
                      Message reçu le <When date={message.createdAt} />, rattaché à aucune demande :{" "}
                      <span className="font-medium">{message.subject}</span>
                      <p className="whitespace-pre-line">{message.body}</p>
                    </li>
                  ))}
                </ul>
              ) : null}
              {result.alerts.length > 0 ? (
                <ul className="space-y-2" aria-label="Alertes de disponibilité de cette personne">
                  {result.alerts.map((alert) => (
                    <li key={alert.id} className="rounded-lg border bg-background p-4 text-sm">
                      Alerte « Me prévenir » sur {alert.offerTitle} ({alert.offerReference}),
                      demandée le <When date={alert.createdAt} /> : {alertState(alert)}
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}
