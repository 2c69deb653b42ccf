import { AlertLinkPage, LinkDone, TokenButton, TokenLinkView } from "~/features/alerts/alert-link";
import {
  describeSavedSearch,
  SAVED_SEARCH_MESSAGES,
  SAVED_SEARCH_UNSUBSCRIBE_PATH,
} from "~/features/saved-searches/saved-searches";
import {
  findSavedSearchesByToken,
  unsubscribeSavedSearch,
} from "~/features/saved-searches/saved-searches.server";
import { unindexedMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { tokenLinkAction, tokenLinkHeaders, tokenLinkLoader } from "./token-link.server";
import type { Route } from "./+types/saved-search-unsubscribe";

// The unsubscribe link of every saved search mail (issue 42), as the stock alert's: GET shows a
// button; POST (the button, or a mail client's one-click RFC 8058 post with the token in the
// address) deletes the searches of that mail.
export const handle: RouteHandle = { hydrate: false };

export const loader = ({ request, context }: Route.LoaderArgs) =>
  tokenLinkLoader(request, context, "saved search link", (token) =>
    findSavedSearchesByToken(token, "unsubscribe"),
  );

export const action = ({ request, context }: Route.ActionArgs) =>
  tokenLinkAction(request, context, "saved search unsubscription", unsubscribeSavedSearch, {
    oneClick: true,
  });

export const headers: Route.HeadersFunction = tokenLinkHeaders;

export const meta: Route.MetaFunction = unindexedMeta(
  "Se désinscrire",
  "Supprimez vos recherches enregistrées.",
);

export default function SavedSearchUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <TokenLinkView
      loaderData={loaderData}
      actionData={actionData}
      invalidLink={SAVED_SEARCH_MESSAGES.invalidLink}
      done={() => <LinkDone {...SAVED_SEARCH_MESSAGES.unsubscribed} />}
      ask={({ queries }, token) => (
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
      )}
    />
  );
}
