// What the personal data page shows of one person: their requests with what goes with them,
// their signed documents, and the counts and wording of an erasure.
import { companyLine } from "~/lib/siren";
import { type ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { CONTACT_STATUS_LABELS } from "~/lib/domain";
import { formatDateTime, isoDate, pluralize } from "~/lib/format";
import { QUOTE_STATE_LABELS } from "~/lib/quote";
import { SIGNED_DOCUMENT_LABELS } from "~/platform/signed-documents";
import type { PersonalDataCounts, PersonalData } from "./personal-data.server";

/** What an erasure keeps, as the page says it (issue 40). */
export function keptText(signed: number, years: number): string {
  return `${signed} ${pluralize(signed, "devis signé est conservé", "devis signés sont conservés")} ${years} ans à compter de la signature (durée légale de conservation des documents commerciaux) : l'effacement ne les supprime pas`;
}

export function countsText(counts: Omit<PersonalDataCounts, "signedDocuments">): string {
  return [
    `${counts.requests} ${pluralize(counts.requests, "demande", "demandes")}`,
    `${counts.notes} ${pluralize(counts.notes, "note", "notes")}`,
    `${counts.statusChanges} ${pluralize(counts.statusChanges, "changement de statut", "changements de statut")}`,
    `${counts.mails} ${pluralize(counts.mails, "e-mail", "e-mails")}`,
    `${counts.quotes} devis`,
    `${counts.messages} ${pluralize(counts.messages, "message échangé", "messages échangés")}`,
    `${counts.documents} ${pluralize(counts.documents, "pièce de dossier LOA", "pièces de dossier LOA")}`,
    `${counts.alerts} ${pluralize(counts.alerts, "alerte de disponibilité", "alertes de disponibilité")}`,
    `${counts.savedSearches} ${pluralize(counts.savedSearches, "recherche enregistrée", "recherches enregistrées")}`,
  ].join(", ");
}

/** The state of an availability alert (issue 30), in a few words. */
export function alertState(alert: PersonalData["alerts"][number]) {
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

export function When({ date }: { date: Date }) {
  return <time dateTime={isoDate(date)}>{formatDateTime(date)}</time>;
}

export function RequestCard({ request }: { request: PersonalData["requests"][number] }) {
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
export function SignedDocumentList({ documents }: { documents: PersonalData["signedDocuments"] }) {
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
