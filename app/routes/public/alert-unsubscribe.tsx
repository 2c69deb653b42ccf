import { AlertLinkPage, LinkDone, TokenButton, TokenLinkView } from "~/features/alerts/alert-link";
import { ALERT_MESSAGES, ALERT_UNSUBSCRIBE_PATH } from "~/features/alerts/alerts";
import { unindexedMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { findAlertByToken, unsubscribeAlert } from "~/features/alerts/alerts.server";
import { tokenLinkAction, tokenLinkHeaders, tokenLinkLoader } from "./token-link.server";
import type { Route } from "./+types/alert-unsubscribe";

// The unsubscribe link of every alert mail (issue 30). GET: a page with a button; POST: the
// button, or a mail client's one-click unsubscribe (RFC 8058, the token in the address). Either
// way the alert and its mails are deleted.
export const handle: RouteHandle = { hydrate: false };

export const loader = ({ request, context }: Route.LoaderArgs) =>
  tokenLinkLoader(request, context, "alert link", (token) =>
    findAlertByToken(token, "unsubscribe"),
  );

export const action = ({ request, context }: Route.ActionArgs) =>
  tokenLinkAction(request, context, "alert unsubscription", unsubscribeAlert, { oneClick: true });

export const headers: Route.HeadersFunction = tokenLinkHeaders;

export const meta: Route.MetaFunction = unindexedMeta(
  "Se désinscrire",
  "Supprimez votre alerte de disponibilité.",
);

export default function AlertUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <TokenLinkView
      loaderData={loaderData}
      actionData={actionData}
      invalidLink={ALERT_MESSAGES.invalidLink}
      done={() => <LinkDone {...ALERT_MESSAGES.unsubscribed} />}
      ask={(alert, token) => (
        <AlertLinkPage title="Se désinscrire">
          <p>
            Supprimer votre alerte sur « {alert.offer.title} » et votre adresse ? Vous ne recevrez
            plus aucun message à ce sujet.
          </p>
          <TokenButton
            action={ALERT_UNSUBSCRIBE_PATH}
            token={token}
            label="Me désinscrire"
            variant="destructive"
          />
        </AlertLinkPage>
      )}
    />
  );
}
