import { isRouteErrorResponse } from "react-router";
import compareScriptUrl from "~/client/compare.ts?script";
import listingScriptUrl from "~/client/listing.ts?script";
import { CompareBar } from "~/features/offers/compare-bar";
import { SavedSearchForm } from "~/features/saved-searches/saved-search-form";
import { ErrorPage } from "~/components/error-page";
import { OfferCard, OfferCardIcons } from "~/components/offer-card";
import { OfferFiltersForm } from "~/components/offer-filters-form";
import { Pager } from "~/components/pager";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { ensureCanonicalQuery, redirectWithSource } from "~/platform/canonical-query";
import { offerCountLabel } from "~/lib/format";
import { MESSAGES } from "~/lib/messages";
import { pageMeta, siteFromMatches } from "~/routes/public/meta";
import { FEED_PATH, FEED_TITLE_SUFFIX } from "~/lib/site";
import { RequestReference } from "~/hooks/request-id";
import * as dom from "~/lib/dom-hooks";
import {
  DEFAULT_SORT,
  hasActiveFilters,
  LISTING_PARAMS,
  offerFiltersToSearch,
  offerListingPath,
  parseOfferFilters,
} from "~/lib/offer-filters";
import type { RouteHandle } from "~/root";
import { pageHeaders } from "~/lib/http-headers";
import { withDatabase } from "~/platform/availability.server";
import {
  LISTING_PAGE_SIZE,
  listActiveOffers,
  currentReferenceOptions,
} from "~/features/offers/offer-listing.server";
import type { Route } from "./+types/offers";

// Server-rendered; filtering as you type is app/client/listing.ts, the comparison bar
// app/client/compare.ts (docs/decisions/005 and 017).
export const handle: RouteHandle = {
  hydrate: false,
  scripts: [listingScriptUrl, compareScriptUrl],
};

export const headers: Route.HeadersFunction = pageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { filters, page, sort } = parseOfferFilters(url.searchParams);

  // One address per result: '/offers?q=&type=all' becomes '/offers' (bookmarks, caches, crawlers).
  ensureCanonicalQuery(
    url.searchParams,
    LISTING_PARAMS,
    offerFiltersToSearch(filters, page, sort),
    offerListingPath(filters, page, sort),
  );

  // The error boundary shows the listing's own message. The page, its total and the counts beside
  // the selects come from the catalogue's index, kept per catalogue version (decision 036).
  const result = await withDatabase("listing", context, () =>
    listActiveOffers(filters, page, LISTING_PAGE_SIZE, undefined, sort),
  );
  const pageCount = Math.max(1, Math.ceil(result.total / LISTING_PAGE_SIZE));
  if (page > pageCount) {
    throw redirectWithSource(offerListingPath(filters, pageCount, sort), url.searchParams);
  }
  // The filter's choices; the listing still shows without them.
  const choices = await currentReferenceOptions().catch(() => ({}));
  return { ...result, filters, page, pageCount, sort, choices };
}

// Canonical: a filtered or re-sorted listing points to the plain /offers (the same offers, or a
// subset of them); pages 2+ of the plain listing are their own canonical (/offers?page=N), so
// that crawlers reach every offer through the 'Suivant' links.
export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const plain =
    loaderData && !hasActiveFilters(loaderData.filters) && loaderData.sort === DEFAULT_SORT;
  const page = plain ? loaderData.page : 1;
  const tags = pageMeta({
    matches,
    title:
      page > 1
        ? `Nos Offres de Serveurs — page ${page}`
        : "Nos Offres de Serveurs — serveurs dédiés et location LOA",
    description:
      "Comparez nos serveurs dédiés et nos solutions de location avec option d'achat (LOA) : filtrez par type, prix, mémoire, cœurs et engagement.",
    path: page > 1 ? `/offers?page=${page}` : "/offers",
  });
  // The feed of new and back-in-stock offers (issue 30), for feed readers.
  const site = siteFromMatches(matches);
  return [
    ...tags,
    {
      tagName: "link",
      rel: "alternate",
      type: "application/atom+xml",
      title: `${site?.name ?? "Offres"} — ${FEED_TITLE_SUFFIX}`,
      href: `${site?.baseUrl ?? ""}${FEED_PATH}`,
    },
  ];
};

function PageHeader() {
  return (
    <div className="mb-8 space-y-3">
      <h1 className="text-3xl font-bold md:text-4xl">Nos Offres de Serveurs</h1>
      <p className="max-w-3xl text-muted-foreground">
        Découvrez notre gamme complète de serveurs dédiés et de solutions en location avec option
        d'achat (LOA) : des configurations adaptées à tous les besoins et à tous les budgets.
      </p>
    </div>
  );
}

export default function Offers({ loaderData }: Route.ComponentProps) {
  const { offers, total, filters, page, pageCount, sort } = loaderData;
  const filtered = hasActiveFilters(filters);
  const pageLink = (n: number) => offerListingPath(filters, n, sort);

  return (
    <div className="container mx-auto px-4 py-10">
      <OfferCardIcons />
      <PageHeader />
      <OfferFiltersForm
        filters={filters}
        filtered={filtered}
        sort={sort}
        choices={loaderData.choices}
        counts={loaderData.counts}
      />

      {/* listing.ts shows the spinner while it fetches new results, then swaps the content. */}
      <section aria-labelledby={dom.RESULT_COUNT_ID} className="mt-8">
        <p
          id={dom.RESULT_COUNT_ID}
          className="mb-4 text-sm text-muted-foreground"
          aria-live="polite"
        >
          {offerCountLabel(total)}
        </p>
        <CompareBar />
        <div
          className="flex justify-center py-16 text-muted-foreground"
          {...dom.hook(dom.LISTING_LOADING)}
          hidden
        >
          <Spinner label="Chargement des offres..." />
        </div>
        <div {...dom.hook(dom.LISTING_CONTENT)}>
          {offers.length === 0 ? (
            <div className="rounded-lg border border-dashed p-12 text-center">
              <p className="text-muted-foreground">{MESSAGES.listingEmpty}</p>
              {loaderData.suggestion ? (
                <p className="mt-3">
                  Vouliez-vous dire{" "}
                  <a
                    className="font-medium text-primary underline underline-offset-4"
                    href={offerListingPath(
                      { ...filters, searchTerm: loaderData.suggestion },
                      1,
                      sort,
                    )}
                  >
                    {loaderData.suggestion}
                  </a>{" "}
                  ?
                </p>
              ) : null}
              <Button asChild variant="link" className="mt-2">
                <a href={offerListingPath({}, 1, sort)}>Effacer les filtres</a>
              </Button>
            </div>
          ) : (
            <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
              {offers.map((offer) => (
                // The card renders lazily off-screen itself (content-visibility): not nested here,
                // where the inner one's lag let a tap land on the item.
                <li key={offer.id}>
                  <OfferCard offer={offer} compareForm={dom.COMPARE_FORM_ID} />
                </li>
              ))}
            </ul>
          )}
          <Pager page={page} pageCount={pageCount} href={pageLink} />
          {/* Inside the swapped part: listing.ts's new results carry their own search's form. */}
          {filtered ? (
            <div className="mt-8 max-w-xl">
              <SavedSearchForm query={offerFiltersToSearch(filters)} />
            </div>
          ) : null}
        </div>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // A refused request (wrong method...) is not a loading failure.
  if (isRouteErrorResponse(error) && error.status < 500)
    return <ErrorPage error={error} inLayout />;
  return (
    <div className="container mx-auto px-4 py-10">
      <PageHeader />
      <p role="alert" className="rounded-lg border border-destructive/50 p-6 text-destructive">
        {MESSAGES.listingError}
      </p>
      <div className="mt-4">
        <RequestReference />
      </div>
    </div>
  );
}
