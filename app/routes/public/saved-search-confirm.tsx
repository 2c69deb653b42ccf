import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { AlertLinkPage, TokenButton, TokenLinkView } from "~/features/alerts/alert-link";
import {
  describeSavedSearch,
  SAVED_SEARCH_CONFIRM_PATH,
  SAVED_SEARCH_MESSAGES,
} from "~/features/saved-searches/saved-searches";
import {
  confirmSavedSearch,
  findSavedSearchesByToken,
} from "~/features/saved-searches/saved-searches.server";
import { unindexedMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { tokenLinkAction, tokenLinkHeaders, tokenLinkLoader } from "./token-link.server";
import type { Route } from "./+types/saved-search-confirm";

// A saved search's double opt-in link (issue 42), as the stock alert's: the page shows a button,
// whose post confirms (a mail scanner that opens the link confirms nothing).
export const handle: RouteHandle = { hydrate: false };

export const loader = ({ request, context }: Route.LoaderArgs) =>
  tokenLinkLoader(request, context, "saved search link", async (token) => {
    const found = await findSavedSearchesByToken(token, "confirm");
    const query = found?.queries[0];
    return found && query ? { query, confirmed: found.confirmed } : undefined;
  });

export const action = ({ request, context }: Route.ActionArgs) =>
  tokenLinkAction(request, context, "saved search confirmation", confirmSavedSearch);

export const headers: Route.HeadersFunction = tokenLinkHeaders;

export const meta: Route.MetaFunction = unindexedMeta(
  "Confirmer ma recherche",
  "Confirmez votre recherche enregistrée.",
);

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
  return (
    <TokenLinkView
      loaderData={loaderData}
      actionData={actionData}
      invalidLink={SAVED_SEARCH_MESSAGES.invalidLink}
      done={(confirmed) => <Confirmed query={confirmed.query} />}
      ask={(search, token) =>
        search.confirmed ? (
          <Confirmed query={search.query} />
        ) : (
          <AlertLinkPage title="Confirmer ma recherche">
            <p>
              Vous serez prévenu(e) par e-mail, au plus une fois par jour, des nouvelles offres de
              la recherche : {describeSavedSearch(search.query)}.
            </p>
            <TokenButton
              action={SAVED_SEARCH_CONFIRM_PATH}
              token={token}
              label="Confirmer ma recherche"
            />
          </AlertLinkPage>
        )
      }
    />
  );
}
