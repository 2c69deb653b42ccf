import { data, Link } from "react-router";
import { AlertLinkPage, InvalidAlertLink, TokenButton } from "~/features/alerts/alert-link";
import { Button } from "~/components/ui/button";
import { alertTokenParam } from "~/features/alerts/alert-form-schema";
import {
  ALERT_CONFIRM_PATH,
  ALERT_MESSAGES,
  ALERT_TOKEN_PARAM,
  confirmedDescription,
} from "~/features/alerts/alerts";
import { SECRET_LINK_HEADERS } from "~/lib/http-headers";
import { pageMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { confirmAlert, findAlertByToken } from "~/features/alerts/alerts.server";
import { withDatabase } from "~/platform/availability.server";
import { assertMethod, formText, readForm } from "~/platform/form.server";
import type { Route } from "./+types/alert-confirm";

// The double opt-in link of `Me prévenir` (issue 30): the page shows a button, whose post confirms
// (a mail scanner that opens the link confirms nothing). Confirming twice is harmless.
export const handle: RouteHandle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = alertTokenParam.parse(
    new URL(request.url).searchParams.get(ALERT_TOKEN_PARAM) ?? undefined,
  );
  const alert = await withDatabase("alert link", context, () => findAlertByToken(token, "confirm"));
  if (!alert || !token)
    return data({ alert: null, token: "" }, { status: 404, headers: SECRET_LINK_HEADERS });
  return data({ alert, token }, { headers: SECRET_LINK_HEADERS });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertMethod(request, "POST");
  const form = await readForm(request);
  const token = alertTokenParam.parse(formText(form, ALERT_TOKEN_PARAM) || undefined);
  const result = await withDatabase("alert confirmation", context, () =>
    confirmAlert(token, context),
  );
  if (result.kind === "invalid-link") {
    return data({ confirmed: null }, { status: 404, headers: SECRET_LINK_HEADERS });
  }
  // An explicit 200: else the loader's 404 (no token in this address) would be the status.
  return data({ confirmed: result }, { status: 200, headers: SECRET_LINK_HEADERS });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  new Headers(actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Confirmer mon alerte",
    description: "Confirmez votre alerte de disponibilité.",
    noindex: true,
  });

export default function AlertConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const posted = actionData;
  if (posted) {
    const { confirmed } = posted;
    if (!confirmed) return <InvalidAlertLink {...ALERT_MESSAGES.invalidLink} />;
    return (
      <AlertLinkPage title={ALERT_MESSAGES.confirmed.title} done>
        <p role="status">{confirmedDescription(confirmed.offer.title, confirmed.available)}</p>
        <Button asChild variant="outline">
          <Link to={`/offers/${confirmed.offer.slug}`}>Voir l'offre</Link>
        </Button>
      </AlertLinkPage>
    );
  }
  const { alert, token } = loaderData;
  if (!alert) return <InvalidAlertLink {...ALERT_MESSAGES.invalidLink} />;
  if (alert.confirmed) {
    return (
      <AlertLinkPage title={ALERT_MESSAGES.confirmed.title} done>
        <p>{confirmedDescription(alert.offer.title, alert.done)}</p>
      </AlertLinkPage>
    );
  }
  return (
    <AlertLinkPage title="Confirmer mon alerte">
      <p>
        Vous serez prévenu(e) une seule fois par e-mail dès que « {alert.offer.title} » sera de
        nouveau disponible.
      </p>
      <TokenButton action={ALERT_CONFIRM_PATH} token={token} label="Confirmer mon alerte" />
    </AlertLinkPage>
  );
}
