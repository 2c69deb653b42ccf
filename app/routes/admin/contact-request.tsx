import { FileDown, History, Mail, Phone, Send, Server, StickyNote } from "lucide-react";
import { companyLine } from "~/lib/siren";
import { originLine } from "~/lib/attribution";
import { data, Form, isRouteErrorResponse, Link, useNavigation } from "react-router";
import { AssignForm, NotSpamForm, StatusBadge, StatusForm } from "~/features/desk/contact-status";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { BackLink } from "~/components/ui/back-link";
import { Card, CardContent, CardHeader, CardTitle, IconCardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/input";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { adminMeta } from "~/routes/admin/meta";
import { CONTACT_NOTE_MAX } from "~/lib/limits";
import { CONTACT_STATUS_LABELS } from "~/lib/domain";
import { formatDateTime, isoDate } from "~/lib/format";
import { monthlyLabel } from "~/lib/money";
import { configurationLines } from "~/lib/offer-options";
import { requestQuoteHref } from "~/lib/quote";
import { useRootData } from "~/hooks/use-root-data";
import { MESSAGES } from "~/lib/messages";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import {
  findContactRequest,
  type ContactRequestDetail,
} from "~/features/desk/contact-request.server";
import { listAssignableUsers } from "~/features/accounts/users.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { contactAction } from "./contact-actions.server";
import { idSchema, readForm } from "~/platform/form.server";
import { attachableQuote, conversationOf } from "~/features/conversation/conversation.server";
import { replyAction } from "~/features/conversation/reply-action.server";
import { Conversation } from "~/features/conversation/conversation";
import { FollowUpCard } from "~/features/follow-ups/follow-up-card";
import { LeaseFileCard } from "~/features/lease-file/lease-file-card";
import { leaseFileOf } from "~/features/lease-file/lease-file.server";
import { refuseDocumentAction } from "~/features/lease-file/lease-file-action.server";
import { LeaseFileSteps } from "~/features/lease-file/lease-file-steps";
import { leaseStepsOf } from "~/features/lease-file/financer.server";
import { financerAction, isFinancerIntent } from "~/features/lease-file/financer-action.server";
import { followUpAction } from "~/features/follow-ups/follow-up-action.server";
import { followUpStateOf } from "~/features/follow-ups/follow-ups.server";
import { replyDraft, replyTemplateChoice } from "~/features/conversation/reply-templates.server";
import type { Route } from "./+types/contact-request";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = ({ data: loaderData }) =>
  adminMeta(loaderData ? `Demande de ${loaderData.request.name}` : "Demande introuvable");

/** An unknown or malformed id: the 404 page. */
function notFound() {
  return data({ message: MESSAGES.notFound }, { status: 404, headers: PRIVATE_HEADERS });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const id = idSchema.safeParse(params.id);
  if (!id.success) throw notFound();
  const [contact, owners, messages, quote, templates, leaseFile] = await Promise.all([
    findContactRequest(id.data),
    listAssignableUsers(),
    conversationOf(id.data),
    attachableQuote(id.data),
    // `?modele=ID`: the message starts from that template (the GET form above it).
    replyTemplateChoice(request.url),
    leaseFileOf(id.data),
  ]);
  if (!contact) throw notFound();
  const draft = replyDraft(templates, contact, user);
  return {
    request: contact,
    owners,
    conversation: { messages, quote, templates: draft },
    followUp: followUpStateOf(contact),
    leaseFile,
    // The hand-off to the financer, its answer, the delivery (issue 41).
    leaseSteps: leaseFile ? await leaseStepsOf(id.data) : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const id = idSchema.safeParse(params.id);
  if (!id.success) throw notFound();
  const form = await readForm(request);
  if (form.get("intent") === "reply") {
    return replyAction(request, form, context, { user, id: id.data });
  }
  if (form.get("intent") === "document-refuse") {
    return refuseDocumentAction(request, form, context, { user, id: id.data });
  }
  const intent = form.get("intent");
  if (isFinancerIntent(intent)) {
    return financerAction(request, form, context, { user, id: id.data, intent });
  }
  if (form.get("intent") === "follow-up") {
    const returnTo = `/admin/contacts/${id.data}`;
    return followUpAction(request, form, context, { user, id: id.data, returnTo });
  }
  return contactAction(request, form, context, {
    user,
    id: id.data,
    returnTo: () => `/admin/contacts/${id.data}`,
  });
}

function NoteForm({
  id,
  noteCount,
  refused,
}: {
  id: number;
  noteCount: number;
  /** The note as typed, when it was refused. */
  refused?: string;
}) {
  const navigation = useNavigation();
  const sending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "note";

  return (
    <Form method="post" action={`/admin/contacts/${id}`} className="space-y-3">
      <input type="hidden" name="intent" value="note" />
      <Field
        id="note"
        label="Note interne"
        description={`Visible des seuls administrateurs (${CONTACT_NOTE_MAX} caractères au plus).`}
        descriptionId="note-help"
      >
        <Textarea
          name="note"
          rows={4}
          required
          maxLength={CONTACT_NOTE_MAX}
          defaultValue={refused ?? ""}
          // A saved note empties the field (one more note); a refused one is given back as typed.
          key={refused !== undefined ? `refused-${refused}` : `notes-${noteCount}`}
        />
      </Field>
      <Button type="submit" disabled={sending}>
        Ajouter la note
      </Button>
    </Form>
  );
}

/** Status and owner changes, newest first, as one history. */
function historyEntries(request: ContactRequestDetail) {
  return [
    ...request.history.map((change) => ({
      key: `status-${change.id}`,
      at: change.createdAt,
      what: `${CONTACT_STATUS_LABELS[change.fromStatus]} → ${CONTACT_STATUS_LABELS[change.toStatus]}`,
      who: change.authorEmail,
    })),
    ...request.ownerHistory.map((change) => ({
      key: `owner-${change.id}`,
      at: change.createdAt,
      what: `Attribuée : ${change.fromOwnerEmail ?? "personne"} → ${change.toOwnerEmail ?? "personne"}`,
      who: change.authorEmail ?? "Attribution automatique",
    })),
  ].sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime());
}

export default function ContactRequestPage({ loaderData, actionData }: Route.ComponentProps) {
  const { request, owners, conversation, followUp, leaseFile, leaseSteps } = loaderData;
  // The refused form's fields as typed and its errors, by field (the page has several forms).
  const typed = (actionData?.values ?? {}) as Record<string, string | undefined>;
  const errors = (actionData?.fieldErrors ?? {}) as Record<string, string | undefined>;
  const { offer } = request;
  const { pricing } = useRootData().site;
  const history = historyEntries(request);
  const self = `/admin/contacts/${request.id}`;
  const navigation = useNavigation();

  return (
    <div className="space-y-6">
      <BackLink to="/admin/contacts">Retour aux demandes</BackLink>

      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-3xl font-bold">{request.name}</h1>
            <StatusBadge status={request.status} />
            {request.suspectedSpam ? <Badge variant="destructive">Spam suspecté</Badge> : null}
          </div>
          <p className="text-sm text-muted-foreground">
            <span className="font-medium text-foreground" data-contact-reference>
              {request.reference}
            </span>
            {" · "}reçue le{" "}
            <time dateTime={isoDate(request.createdAt)}>{formatDateTime(request.createdAt)}</time>
            {" · "}dernière activité le{" "}
            <time dateTime={isoDate(request.updatedAt)}>{formatDateTime(request.updatedAt)}</time>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {request.suspectedSpam ? <NotSpamForm id={request.id} action={self} /> : null}
          <StatusForm id={request.id} name={request.name} status={request.status} action={self} />
          <AssignForm id={request.id} ownerId={request.ownerId} owners={owners} action={self} />
          {offer === null || (offer.deleted && !request.configuration) ? null : (
            <Button asChild variant="outline">
              <a href={requestQuoteHref(request.id)} download>
                <FileDown className="size-4" aria-hidden="true" />
                Devis (PDF)
                {request.quoteNumber ? (
                  <span className="text-muted-foreground">{request.quoteNumber}</span>
                ) : null}
              </a>
            </Button>
          )}
          {offer === null || (offer.deleted && !request.configuration) ? null : (
            <Button asChild variant="outline">
              <Link to={`/admin/contacts/${request.id}/envoyer-devis`}>
                <Send className="size-4" aria-hidden="true" />
                Envoyer le devis
              </Link>
            </Button>
          )}
          {request.quoteSentAt ? (
            <p className="w-full text-sm text-muted-foreground">
              Devis {request.quoteNumber} envoyé le {formatDateTime(request.quoteSentAt)}
              {request.quoteAcceptedAt
                ? `, accepté le ${formatDateTime(request.quoteAcceptedAt)}`
                : request.quoteDeclinedAt
                  ? `, refusé le ${formatDateTime(request.quoteDeclinedAt)}`
                  : ", en attente de réponse"}
              .
            </p>
          ) : null}
        </div>
      </div>

      <ActionFailureAlert answer={actionData} state={navigation.state} always />

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Demande</CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              <dl className="grid gap-3 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
                <dt className="text-muted-foreground">Email</dt>
                <dd>
                  <a
                    href={`mailto:${request.email}`}
                    className="inline-flex items-center gap-2 hover:text-primary"
                  >
                    <Mail className="size-4 text-primary" aria-hidden="true" />
                    {request.email}
                  </a>
                  {request.emailFailedAt ? (
                    <p className="mt-1 text-sm text-destructive">
                      Adresse en échec : un message est revenu non remis le{" "}
                      {formatDateTime(request.emailFailedAt)}.
                    </p>
                  ) : null}
                </dd>
                <dt className="text-muted-foreground">Téléphone</dt>
                <dd>
                  {request.phone ? (
                    <a
                      href={`tel:${request.phone.replace(/[^\d+]/g, "")}`}
                      className="inline-flex items-center gap-2 hover:text-primary"
                    >
                      <Phone className="size-4 text-primary" aria-hidden="true" />
                      {request.phone}
                    </a>
                  ) : (
                    <span className="text-muted-foreground">Non renseigné</span>
                  )}
                </dd>
                <dt className="text-muted-foreground">Société</dt>
                <dd>
                  {companyLine(request.company, request.siren) ?? (
                    <span className="text-muted-foreground">Non renseignée</span>
                  )}
                </dd>
                <dt className="text-muted-foreground">Offre</dt>
                <dd className="flex items-center gap-2">
                  <Server className="size-4 text-primary" aria-hidden="true" />
                  {offer === null ? (
                    "Demande générale"
                  ) : offer.deleted ? (
                    <span>
                      <span className="font-medium text-destructive">
                        {ADMIN_MESSAGES.offerDeletedLabel}
                      </span>{" "}
                      : {offer.title} ({offer.reference})
                    </span>
                  ) : (
                    <span>
                      {request.offerActive && request.offerSlug ? (
                        <a href={`/offers/${request.offerSlug}`} className="hover:text-primary">
                          {offer.title}
                        </a>
                      ) : (
                        offer.title
                      )}{" "}
                      ({offer.reference})
                      {request.offerPrice ? ` — ${monthlyLabel(request.offerPrice, pricing)}` : ""}
                      {request.offerActive ? "" : " (inactive)"}
                    </span>
                  )}
                </dd>
                {/* Where the visit came from (issue 42): utm_* of its first page, the referring site. */}
                <dt className="text-muted-foreground">Provenance</dt>
                <dd data-testid="request-origin">
                  {originLine(request) ?? <span className="text-muted-foreground">Inconnue</span>}
                </dd>
              </dl>
              {request.configuration ? (
                <div className="space-y-2">
                  <h3 className="text-sm font-medium text-muted-foreground">
                    Configuration choisie
                  </h3>
                  <ul className="space-y-1 rounded-md bg-muted/50 p-4 text-sm">
                    {configurationLines(request.configuration).map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                </div>
              ) : null}
              <div className="space-y-2">
                <h3 className="text-sm font-medium text-muted-foreground">Message</h3>
                <p className="whitespace-pre-line break-words rounded-md bg-muted/50 p-4 text-sm">
                  {request.message}
                </p>
              </div>
            </CardContent>
          </Card>

          {leaseFile ? (
            <LeaseFileCard requestId={request.id} file={leaseFile}>
              {leaseSteps ? (
                <LeaseFileSteps
                  requestId={request.id}
                  file={leaseFile}
                  steps={leaseSteps}
                  refused={actionData ?? undefined}
                />
              ) : null}
            </LeaseFileCard>
          ) : null}

          <Conversation
            requestId={request.id}
            reference={request.reference}
            buyer={request.email}
            messages={conversation.messages}
            quote={conversation.quote}
            templates={conversation.templates}
            refused={
              actionData?.intent === "reply" ? { values: typed, fieldErrors: errors } : undefined
            }
          />

          <Card>
            <CardHeader>
              <IconCardTitle icon={StickyNote}>Notes internes</IconCardTitle>
            </CardHeader>
            <CardContent className="space-y-6">
              <NoteForm
                id={request.id}
                noteCount={request.notes.length}
                refused={actionData?.intent === "note" ? typed.note : undefined}
              />
              {request.notes.length === 0 ? (
                <p className="text-sm text-muted-foreground">Aucune note pour le moment.</p>
              ) : (
                <ul className="space-y-4" aria-label="Notes">
                  {request.notes.map((note) => (
                    <li key={note.id} className="rounded-md border p-3">
                      <p className="text-xs text-muted-foreground">
                        {note.authorEmail} ·{" "}
                        <time dateTime={isoDate(note.createdAt)}>
                          {formatDateTime(note.createdAt)}
                        </time>
                      </p>
                      <p className="mt-1 whitespace-pre-line break-words text-sm">{note.body}</p>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>

        <div className="space-y-6">
          <FollowUpCard
            action={self}
            state={followUp}
            refused={
              actionData?.intent === "follow-up"
                ? { value: typed.nextActionOn, error: errors.nextActionOn }
                : undefined
            }
          />
          <Card className="h-fit">
            <CardHeader>
              <IconCardTitle icon={History}>Historique</IconCardTitle>
            </CardHeader>
            <CardContent>
              {history.length === 0 ? (
                <p className="text-sm text-muted-foreground">Aucun changement pour le moment.</p>
              ) : (
                <ol className="space-y-3" aria-label="Historique de la demande">
                  {history.map((entry) => (
                    <li key={entry.key} className="text-sm">
                      <p className="font-medium">{entry.what}</p>
                      <p className="text-xs text-muted-foreground">
                        {entry.who} ·{" "}
                        <time dateTime={isoDate(entry.at)}>{formatDateTime(entry.at)}</time>
                      </p>
                    </li>
                  ))}
                </ol>
              )}
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="flex min-h-[50vh] flex-col items-center justify-center gap-4 text-center">
        <p className="text-6xl font-bold text-primary">404</p>
        <h1 className="text-2xl font-bold">{MESSAGES.notFound}</h1>
        <Button asChild>
          <Link to="/admin/contacts">Retour aux demandes</Link>
        </Button>
      </div>
    );
  }
  throw error;
}
