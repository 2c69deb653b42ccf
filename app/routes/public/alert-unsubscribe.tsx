import { data } from "react-router";
import { AlertLinkPage, InvalidAlertLink, TokenButton } from "~/features/alerts/alert-link";
import { alertTokenParam } from "~/features/alerts/alert-form-schema";
import {
  ALERT_MESSAGES,
  ALERT_TOKEN_PARAM,
  ALERT_UNSUBSCRIBE_PATH,
} from "~/features/alerts/alerts";
import { SECRET_LINK_HEADERS } from "~/lib/http-headers";
import { pageMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { findAlertByToken, unsubscribeAlert } from "~/features/alerts/alerts.server";
import { withDatabase } from "~/platform/availability.server";
import { assertMethod, formText, readForm } from "~/platform/form.server";
import type { Route } from "./+types/alert-unsubscribe";

// The unsubscribe link of every alert mail (issue 30). GET: a page with a button; POST: the
// button, or a mail client's one-click unsubscribe (RFC 8058: `List-Unsubscribe=One-Click` posted
// to the List-Unsubscribe address by the provider's server: the token in the query, no cookie, no
// Origin, which the cross-site check lets through). Either way the alert and its mails are deleted.
export const handle: RouteHandle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = alertTokenParam.parse(
    new URL(request.url).searchParams.get(ALERT_TOKEN_PARAM) ?? undefined,
  );
  const alert = await withDatabase("alert link", context, () =>
    findAlertByToken(token, "unsubscribe"),
  );
  if (!alert || !token)
    return data({ alert: null, token: "" }, { status: 404, headers: SECRET_LINK_HEADERS });
  return data({ alert, token }, { headers: SECRET_LINK_HEADERS });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertMethod(request, "POST");
  const form = await readForm(request);
  // The page's button posts the token; a one-click post leaves it in the address.
  const posted =
    formText(form, ALERT_TOKEN_PARAM) || new URL(request.url).searchParams.get(ALERT_TOKEN_PARAM);
  const token = alertTokenParam.parse(posted || undefined);
  const result = await withDatabase("alert unsubscription", context, () =>
    unsubscribeAlert(token, context),
  );
  if (result.kind === "invalid-link") {
    return data({ unsubscribed: false }, { status: 404, headers: SECRET_LINK_HEADERS });
  }
  // An explicit 200: else the loader's 404 (the alert is gone now) would be the status.
  return data({ unsubscribed: true }, { status: 200, headers: SECRET_LINK_HEADERS });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  new Headers(actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Se désinscrire",
    description: "Supprimez votre alerte de disponibilité.",
    noindex: true,
  });

export default function AlertUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData) {
    if (!actionData.unsubscribed) return <InvalidAlertLink {...ALERT_MESSAGES.invalidLink} />;
    return (
      <AlertLinkPage title={ALERT_MESSAGES.unsubscribed.title} done>
        <p role="status">{ALERT_MESSAGES.unsubscribed.description}</p>
      </AlertLinkPage>
    );
  }
  const { alert, token } = loaderData;
  if (!alert) return <InvalidAlertLink {...ALERT_MESSAGES.invalidLink} />;
  return (
    <AlertLinkPage title="Se désinscrire">
      <p>
        Supprimer votre alerte sur « {alert.offer.title} » et votre adresse ? Vous ne recevrez plus
        aucun message à ce sujet.
      </p>
      <TokenButton
        action={ALERT_UNSUBSCRIBE_PATH}
        token={token}
        label="Me désinscrire"
        variant="destructive"
      />
    </AlertLinkPage>
  );
}
