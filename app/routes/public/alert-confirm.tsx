import { Link } from "react-router";
import { AlertLinkPage, TokenButton, TokenLinkView } from "~/features/alerts/alert-link";
import { Button } from "~/components/ui/button";
import { ALERT_CONFIRM_PATH, ALERT_MESSAGES, confirmedDescription } from "~/features/alerts/alerts";
import { unindexedMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { confirmAlert, findAlertByToken } from "~/features/alerts/alerts.server";
import { tokenLinkAction, tokenLinkHeaders, tokenLinkLoader } from "./token-link.server";
import type { Route } from "./+types/alert-confirm";

// The double opt-in link of `Me prévenir` (issue 30): the page shows a button, whose post confirms
// (a mail scanner that opens the link confirms nothing). Confirming twice is harmless.
export const handle: RouteHandle = { hydrate: false };

export const loader = ({ request, context }: Route.LoaderArgs) =>
  tokenLinkLoader(request, context, "alert link", (token) => findAlertByToken(token, "confirm"));

export const action = ({ request, context }: Route.ActionArgs) =>
  tokenLinkAction(request, context, "alert confirmation", confirmAlert);

export const headers: Route.HeadersFunction = tokenLinkHeaders;

export const meta: Route.MetaFunction = unindexedMeta(
  "Confirmer mon alerte",
  "Confirmez votre alerte de disponibilité.",
);

export default function AlertConfirm({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <TokenLinkView
      loaderData={loaderData}
      actionData={actionData}
      invalidLink={ALERT_MESSAGES.invalidLink}
      done={(confirmed) => (
        <AlertLinkPage title={ALERT_MESSAGES.confirmed.title} done>
          <p role="status">{confirmedDescription(confirmed.offer.title, confirmed.available)}</p>
          <Button asChild variant="outline">
            <Link to={`/offers/${confirmed.offer.slug}`}>Voir l'offre</Link>
          </Button>
        </AlertLinkPage>
      )}
      ask={(alert, token) =>
        alert.confirmed ? (
          <AlertLinkPage title={ALERT_MESSAGES.confirmed.title} done>
            <p>{confirmedDescription(alert.offer.title, alert.done)}</p>
          </AlertLinkPage>
        ) : (
          <AlertLinkPage title="Confirmer mon alerte">
            <p>
              Vous serez prévenu(e) une seule fois par e-mail dès que « {alert.offer.title} » sera
              de nouveau disponible.
            </p>
            <TokenButton action={ALERT_CONFIRM_PATH} token={token} label="Confirmer mon alerte" />
          </AlertLinkPage>
        )
      }
    />
  );
}
