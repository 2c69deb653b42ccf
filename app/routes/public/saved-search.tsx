import { data, redirect } from "react-router";
import { BackLink } from "~/components/ui/back-link";
import { CardPage } from "~/components/card-page";
import { SubscriptionAnswer } from "~/components/subscription-form";
import { alertFormSchema } from "~/features/alerts/alert-form-schema";
import { SavedSearchForm } from "~/features/saved-searches/saved-search-form";
import {
  canonicalSearchQuery,
  describeSavedSearch,
  SAVED_SEARCH_MESSAGES,
  SAVED_SEARCH_PATH,
} from "~/features/saved-searches/saved-searches";
import { subscribeToSavedSearch } from "~/features/saved-searches/saved-searches.server";
import { firstFieldError } from "~/lib/field-errors";
import {
  cacheControl,
  formPageHeaders,
  retryAfter,
  UNAVAILABLE_RETRY_SECONDS,
} from "~/lib/http-headers";
import { retryInMinutes } from "~/lib/messages";
import { unindexedMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { assertMethod, readForm } from "~/platform/form.server";
import { countRefusal } from "~/platform/metrics.server";
import type { Route } from "./+types/saved-search";

// `Me prévenir des nouvelles offres` (issue 42): where the filtered listing's form posts (the
// listing's query in the address: /recherches?q=epyc&type=dedicated), and the page that answers
// it without JavaScript: the form again with its error, or, after the redirect, "check your inbox".
export const handle: RouteHandle = { hydrate: false };

export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const query = canonicalSearchQuery(params);
  const headers = cacheControl("private");
  if (!query) return data({ query: null, sent: false }, { status: 404, headers });
  return data({ query, sent: params.get("envoyee") === "1" }, { headers });
}

type Failure = { error: string; email?: string; fieldError?: string };

export async function action({ request, context }: Route.ActionArgs) {
  assertMethod(request, "POST");
  const query = canonicalSearchQuery(new URL(request.url).searchParams);
  const submission = await readForm(request, alertFormSchema);
  const refuse = (status: number, failure: Failure, headers?: HeadersInit) =>
    data(failure, { status, headers });
  const typed = submission.values.email?.slice(0, 254);
  if (!query) return refuse(400, { error: SAVED_SEARCH_MESSAGES.noFilter });
  if (!submission.success) {
    const fieldError = firstFieldError(submission.fieldErrors, SAVED_SEARCH_MESSAGES.invalid);
    return refuse(400, { error: fieldError, email: typed, fieldError });
  }
  const result = await subscribeToSavedSearch({ query, email: submission.data.email }, context);
  switch (result.kind) {
    case "requested": {
      const sent = new URLSearchParams(query);
      sent.set("envoyee", "1");
      throw redirect(`${SAVED_SEARCH_PATH}?${sent.toString()}`, 303);
    }
    case "rate-limited":
      countRefusal("alert");
      return refuse(
        429,
        {
          error: `${SAVED_SEARCH_MESSAGES.rateLimited} ${retryInMinutes(result.retryAfterSeconds)}`,
          email: typed,
        },
        retryAfter(result.retryAfterSeconds),
      );
    case "failed":
      return refuse(
        503,
        { error: SAVED_SEARCH_MESSAGES.failed, email: typed },
        retryAfter(UNAVAILABLE_RETRY_SECONDS),
      );
  }
}

export const headers: Route.HeadersFunction = formPageHeaders;

export const meta: Route.MetaFunction = unindexedMeta(
  "Me prévenir des nouvelles offres",
  "Recevez un e-mail quand une nouvelle offre correspond à votre recherche.",
);

export default function SavedSearchPage({ loaderData, actionData }: Route.ComponentProps) {
  const { query, sent } = loaderData;
  const refused = actionData;
  return (
    <CardPage
      title="Me prévenir des nouvelles offres"
      above={
        <BackLink to={`/offers${query ?? ""}`} className="mb-6">
          Retour aux offres
        </BackLink>
      }
    >
      {query ? <p>Recherche : {describeSavedSearch(query)}</p> : null}
      <SubscriptionAnswer
        refused={refused && { title: "Demande non enregistrée", description: refused.error }}
        missing={query ? undefined : SAVED_SEARCH_MESSAGES.noFilter}
        sent={
          sent
            ? {
                title: "Vérifiez votre boîte de réception",
                description: SAVED_SEARCH_MESSAGES.sent,
              }
            : undefined
        }
      >
        {query ? (
          <SavedSearchForm query={query} email={refused?.email} error={refused?.fieldError} />
        ) : null}
      </SubscriptionAnswer>
    </CardPage>
  );
}
