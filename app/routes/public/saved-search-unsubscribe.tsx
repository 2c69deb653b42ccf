import { data } from "react-router";
import { alertTokenParam } from "~/features/alerts/alert-form-schema";
import { AlertLinkPage, InvalidAlertLink, TokenButton } from "~/features/alerts/alert-link";
import { ALERT_TOKEN_PARAM } from "~/features/alerts/alerts";
import {
  describeSavedSearch,
  SAVED_SEARCH_MESSAGES,
  SAVED_SEARCH_UNSUBSCRIBE_PATH,
} from "~/features/saved-searches/saved-searches";
import {
  findSavedSearchesByToken,
  unsubscribeSavedSearch,
} from "~/features/saved-searches/saved-searches.server";
import { SECRET_LINK_HEADERS } from "~/lib/http-headers";
import { pageMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { withDatabase } from "~/platform/availability.server";
import { assertMethod, formText, readForm } from "~/platform/form.server";
import type { Route } from "./+types/saved-search-unsubscribe";

// The unsubscribe link of every saved search mail (issue 42), as the stock alert's: GET shows a
// button; POST (the button, or a mail client's one-click RFC 8058 post with the token in the
// address) deletes the searches of that mail.
export const handle: RouteHandle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = alertTokenParam.parse(
    new URL(request.url).searchParams.get(ALERT_TOKEN_PARAM) ?? undefined,
  );
  const found = await withDatabase("saved search link", context, () =>
    findSavedSearchesByToken(token, "unsubscribe"),
  );
  if (!found || !token)
    return data({ queries: null, token: "" }, { status: 404, headers: SECRET_LINK_HEADERS });
  return data({ queries: found.queries, token }, { headers: SECRET_LINK_HEADERS });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertMethod(request, "POST");
  const form = await readForm(request);
  const posted =
    formText(form, ALERT_TOKEN_PARAM) || new URL(request.url).searchParams.get(ALERT_TOKEN_PARAM);
  const token = alertTokenParam.parse(posted || undefined);
  const result = await withDatabase("saved search unsubscription", context, () =>
    unsubscribeSavedSearch(token, context),
  );
  if (result.kind === "invalid-link") {
    return data({ unsubscribed: false }, { status: 404, headers: SECRET_LINK_HEADERS });
  }
  return data({ unsubscribed: true }, { status: 200, headers: SECRET_LINK_HEADERS });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  new Headers(actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Se désinscrire",
    description: "Supprimez vos recherches enregistrées.",
    noindex: true,
  });

export default function SavedSearchUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData) {
    if (!actionData.unsubscribed)
      return <InvalidAlertLink {...SAVED_SEARCH_MESSAGES.invalidLink} />;
    return (
      <AlertLinkPage title={SAVED_SEARCH_MESSAGES.unsubscribed.title} done>
        <p role="status">{SAVED_SEARCH_MESSAGES.unsubscribed.description}</p>
      </AlertLinkPage>
    );
  }
  const { queries, token } = loaderData;
  if (!queries) return <InvalidAlertLink {...SAVED_SEARCH_MESSAGES.invalidLink} />;
  return (
    <AlertLinkPage title="Se désinscrire">
      <p>Supprimer ces recherches enregistrées et votre adresse ?</p>
      <ul className="list-disc pl-6">
        {queries.map((query) => (
          <li key={query}>{describeSavedSearch(query)}</li>
        ))}
      </ul>
      <TokenButton
        action={SAVED_SEARCH_UNSUBSCRIBE_PATH}
        token={token}
        label="Me désinscrire"
        variant="destructive"
      />
    </AlertLinkPage>
  );
}
