import { SubscriptionForm, type SubscriptionFormValues } from "~/components/subscription-form";
import { SAVED_SEARCH_PATH, SAVED_SEARCH_PRIVACY_NOTICE } from "./saved-searches";

/**
 * `Me prévenir des nouvelles offres` (issue 42) on a filtered listing: the form's address carries
 * the listing's canonical query (/recherches?q=epyc).
 */
export function SavedSearchForm({ query, ...values }: SubscriptionFormValues & { query: string }) {
  return (
    <SubscriptionForm
      action={`${SAVED_SEARCH_PATH}${query}`}
      name="Me prévenir des nouvelles offres"
      lead="Me prévenir des nouvelles offres de cette recherche"
      fieldId="saved-search-email"
      submit="Me prévenir des nouvelles offres"
      notice={SAVED_SEARCH_PRIVACY_NOTICE}
      className="rounded-lg border p-4"
      {...values}
    />
  );
}
