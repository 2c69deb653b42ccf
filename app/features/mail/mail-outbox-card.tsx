import { AlertTriangle, MailCheck, RotateCw } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDateTime, isoDate } from "~/lib/format";
import { failureToast, useActionToast } from "~/hooks/use-action-toast";
import type { ActionFailure } from "~/lib/field-errors";
import type { MailOutboxOverview } from "./mail-outbox.server";

export const MAIL_RETRY_INTENT = "retry-mail";

type Troubled = MailOutboxOverview["troubled"][number];

// One fetcher shared by the buttons and the card: a retried mail's button disappears when the
// dashboard reloads, so the card (which stays) shows a refusal's toast (success is a flash).
const RETRY_FETCHER = "mail-retry";

function useRetryToast() {
  const fetcher = useFetcher<ActionFailure>({ key: RETRY_FETCHER });
  useActionToast(fetcher.data, failureToast, fetcher.state);
}

function RetryButton({ mail }: { mail: Troubled }) {
  const fetcher = useFetcher<ActionFailure>({ key: RETRY_FETCHER });
  return (
    <fetcher.Form method="post" action="/admin" preventScrollReset>
      <input type="hidden" name="intent" value={MAIL_RETRY_INTENT} />
      <input type="hidden" name="id" value={mail.id} />
      <Button
        type="submit"
        size="sm"
        variant="outline"
        disabled={fetcher.state !== "idle"}
        aria-label={`Réessayer l'envoi de l'e-mail de la demande de ${mail.contactName ?? "?"}`}
      >
        <RotateCw className="size-4" aria-hidden="true" />
        Réessayer
      </Button>
    </fetcher.Form>
  );
}

/** Outbox of notification e-mails: waiting, failed, the last error, and a retry per failed mail. */
export function MailOutboxCard({
  overview,
  enabled,
}: {
  overview: MailOutboxOverview;
  enabled: boolean;
}) {
  const { pending, failed, oldestPendingAt, troubled } = overview;
  useRetryToast();
  return (
    <Card role="region" aria-labelledby="mail-outbox-title" data-mail-outbox="">
      <CardHeader>
        <CardTitle as="h2" id="mail-outbox-title">
          Notifications par e-mail
        </CardTitle>
        <CardDescription>
          Chaque demande de contact est envoyée par e-mail à l'équipe commerciale.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {enabled ? null : (
          <p className="flex items-start gap-2 rounded-md border border-destructive/50 p-3 text-sm text-destructive">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Notifications désactivées : SMTP_URL n'est pas configuré. Les demandes sont enregistrées
            et leurs e-mails attendent d'être envoyés.
          </p>
        )}
        <dl className="grid gap-4 sm:grid-cols-2">
          <div className="flex items-center gap-3 rounded-md border p-4">
            <dt className="text-sm text-muted-foreground">
              En attente d'envoi
              {pending > 0 && oldestPendingAt ? (
                <span className="block text-xs">
                  depuis le{" "}
                  <time dateTime={isoDate(oldestPendingAt)}>{formatDateTime(oldestPendingAt)}</time>
                </span>
              ) : null}
            </dt>
            <dd className="ml-auto text-xl font-semibold" data-mail-pending="">
              {pending}
            </dd>
          </div>
          <div className="flex items-center gap-3 rounded-md border p-4">
            <dt className="text-sm text-muted-foreground">En échec</dt>
            <dd
              className={`ml-auto text-xl font-semibold ${failed > 0 ? "text-destructive" : ""}`}
              data-mail-failed=""
            >
              {failed}
            </dd>
          </div>
        </dl>
        {troubled.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <MailCheck className="size-4 text-success" aria-hidden="true" />
            Aucun e-mail en échec.
          </p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="E-mails en difficulté">
            {troubled.map((mail) => (
              <li key={mail.id} className="flex flex-wrap items-start gap-3 p-3 text-sm">
                <div className="min-w-0 flex-1 space-y-1">
                  <p className="flex flex-wrap items-center gap-2">
                    {mail.contactRequestId !== null ? (
                      <Link
                        to={`/admin/contacts/${mail.contactRequestId}`}
                        className="font-medium hover:text-primary hover:underline"
                      >
                        Demande de {mail.contactName}
                      </Link>
                    ) : (
                      <span className="font-medium">E-mail n° {mail.id}</span>
                    )}
                    {mail.status === "failed" ? (
                      <Badge variant="destructive">Échec</Badge>
                    ) : (
                      <Badge variant="secondary">
                        Nouvel essai le{" "}
                        <time dateTime={isoDate(mail.nextAttemptAt)} className="ml-1">
                          {formatDateTime(mail.nextAttemptAt)}
                        </time>
                      </Badge>
                    )}
                    <span className="text-xs text-muted-foreground">
                      {mail.attempts} tentative{mail.attempts > 1 ? "s" : ""}
                    </span>
                  </p>
                  {mail.lastError ? (
                    <p className="break-words font-mono text-xs text-muted-foreground">
                      Dernière erreur : {mail.lastError}
                    </p>
                  ) : null}
                </div>
                {mail.status === "failed" ? <RetryButton mail={mail} /> : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
