import { data, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { alertTokenParam } from "~/features/alerts/alert-form-schema";
import { AlertLinkPage, InvalidAlertLink, TokenButton } from "~/features/alerts/alert-link";
import { ALERT_TOKEN_PARAM } from "~/features/alerts/alerts";
import {
  describeSavedSearch,
  SAVED_SEARCH_CONFIRM_PATH,
  SAVED_SEARCH_MESSAGES,
} from "~/features/saved-searches/saved-searches";
import {
  confirmSavedSearch,
  findSavedSearchesByToken,
} from "~/features/saved-searches/saved-searches.server";
import { SECRET_LINK_HEADERS } from "~/lib/http-headers";
import { pageMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { withDatabase } from "~/platform/availability.server";
import { assertMethod, formText, readForm } from "~/platform/form.server";
import type { Route } from "./+types/saved-search-confirm";

// A saved search's double opt-in link (issue 42), as the stock alert's: the page shows a button,
// whose post confirms (a mail scanner that opens the link confirms nothing).
export const handle: RouteHandle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = alertTokenParam.parse(
    new URL(request.url).searchParams.get(ALERT_TOKEN_PARAM) ?? undefined,
  );
  const found = await withDatabase("saved search link", context, () =>
    findSavedSearchesByToken(token, "confirm"),
  );
  const query = found?.queries[0];
  if (!found || !query || !token)
    return data({ search: null, token: "" }, { status: 404, headers: SECRET_LINK_HEADERS });
  return data(
    { search: { query, confirmed: found.confirmed }, token },
    { headers: SECRET_LINK_HEADERS },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  assertMethod(request, "POST");
  const form = await readForm(request);
  const token = alertTokenParam.parse(formText(form, ALERT_TOKEN_PARAM) || undefined);
  const result = await withDatabase("saved search confirmation", context, () =>
    confirmSavedSearch(token, context),
  );
  if (result.kind === "invalid-link") {
    return data({ confirmed: null }, { status: 404, headers: SECRET_LINK_HEADERS });
  }
  return data({ confirmed: result.query }, { status: 200, headers: SECRET_LINK_HEADERS });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  new Headers(actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Confirmer ma recherche",
    description: "Confirmez votre recherche enregistrée.",
    noindex: true,
  });

function Confirmed({ query }: { query: string }) {
  return (
    <AlertLinkPage title={SAVED_SEARCH_MESSAGES.confirmed.title} done>
      <p role="status">
        {describeSavedSearch(query)} : {SAVED_SEARCH_MESSAGES.confirmed.description}
      </p>
      <Button asChild variant="outline">
        <Link to={`/offers${query}`}>Voir les offres</Link>
      </Button>
    </AlertLinkPage>
  );
}

export default function SavedSearchConfirm({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData) {
    const { confirmed } = actionData;
    if (!confirmed) return <InvalidAlertLink {...SAVED_SEARCH_MESSAGES.invalidLink} />;
    return <Confirmed query={confirmed} />;
  }
  const { search, token } = loaderData;
  if (!search) return <InvalidAlertLink {...SAVED_SEARCH_MESSAGES.invalidLink} />;
  if (search.confirmed) return <Confirmed query={search.query} />;
  return (
    <AlertLinkPage title="Confirmer ma recherche">
      <p>
        Vous serez prévenu(e) par e-mail, au plus une fois par jour, des nouvelles offres de la
        recherche : {describeSavedSearch(search.query)}.
      </p>
      <TokenButton
        action={SAVED_SEARCH_CONFIRM_PATH}
        token={token}
        label="Confirmer ma recherche"
      />
    </AlertLinkPage>
  );
}
