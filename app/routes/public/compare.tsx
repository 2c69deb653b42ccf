import { X } from "lucide-react";
import { Link } from "react-router";
import { DeliveryLine } from "~/components/offer-badges";
import { BackLink } from "~/components/ui/back-link";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { compareHref, MAX_COMPARED, parseComparedSlugs } from "~/features/offers/compare";
import { SOURCE_PARAM, withSource } from "~/lib/attribution";
import { OFFER_TYPE_LABELS } from "~/lib/domain";
import { OFFER_FIELDS, OFFER_NUMBER_FIELDS, type OfferFieldSpec } from "~/lib/offer-fields";
import { pluralize } from "~/lib/format";
import { pageMeta } from "~/routes/public/meta";
import { perMonth } from "~/lib/money";
import { offerTerms } from "~/lib/offer-price";
import { useRootData } from "~/hooks/use-root-data";
import { useVisitSource } from "~/hooks/use-visit-source";
import type { RouteHandle } from "~/root";
import { withDatabase } from "~/platform/availability.server";
import { redirectWithSource } from "~/platform/canonical-query";
import { findActiveOffersBySlugs } from "~/features/offers/offer-listing.server";
import type { OfferDetail as Offer } from "~/features/offers/offer-listing.server";
import type { Route } from "./+types/compare";

// Links only: no React needed in the browser.
export const handle: RouteHandle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { slugs, ignored } = parseComparedSlugs(url.searchParams);
  // One address per selection (the form without JavaScript sends offres=a&offres=b). A selection
  // of more than 3 is answered where it is, so that the page can say what was left out.
  // (Compared as parameters: a proxy or client may send the commas as %2C.) The visit's origin
  // (`src`, issue 42) is no part of the selection and goes along.
  const params = [...url.searchParams].filter(([key]) => key !== SOURCE_PARAM);
  const isCanonical = slugs.length
    ? params.length === 1 && params[0][0] === "offres" && params[0][1] === slugs.join(",")
    : params.length === 0;
  if (ignored === 0 && !isCanonical) throw redirectWithSource(compareHref(slugs), url.searchParams);
  const offers = await withDatabase("comparison", context, () => findActiveOffersBySlugs(slugs));
  return { offers, ignored, unavailable: slugs.length - offers.length };
}

// A comparison is a visitor's selection, not content of its own: never indexed (also said by
// X-Robots-Tag, which covers crawlers that skip the markup) and not in the sitemap.
export const headers: Route.HeadersFunction = ({ parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  headers.set("X-Robots-Tag", "noindex");
  return headers;
};

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Comparer des offres",
    description:
      "Nos serveurs dédiés et nos locations LOA côte à côte : processeur, mémoire, stockage, réseau, prix HT et TTC, frais et conditions.",
    noindex: true,
  });

type Row = { label: string; value: (offer: Offer) => React.ReactNode };

/** A row for each number with a `compare` label in the field table (offer-fields.ts). */
const NUMBER_ROWS: Row[] = OFFER_NUMBER_FIELDS.flatMap((field) => {
  const { compare }: OfferFieldSpec = OFFER_FIELDS[field];
  if (!compare) return [];
  return [
    {
      label: compare,
      value: (o: Offer) => {
        const value = o[field];
        return typeof value === "string" ? Number(value).toLocaleString("fr-FR") : (value ?? "—");
      },
    },
  ];
});

export default function Compare({ loaderData }: Route.ComponentProps) {
  const { offers, ignored, unavailable } = loaderData;
  const { pricing } = useRootData().site;
  const src = useVisitSource();
  const terms = new Map(offers.map((offer) => [offer.id, offerTerms(offer, pricing)]));
  const termsOf = (offer: Offer) => terms.get(offer.id)!;
  const dash = "—";

  const rows: Row[] = [
    { label: "Type", value: (o) => OFFER_TYPE_LABELS[o.type] },
    { label: "Processeur", value: (o) => o.cpu },
    ...NUMBER_ROWS,
    { label: "Mémoire", value: (o) => o.ram },
    { label: "Stockage", value: (o) => o.storage },
    {
      label: "Réseau",
      value: (o) =>
        o.network ??
        (o.bandwidthGbps === null
          ? dash
          : `${Number(o.bandwidthGbps).toLocaleString("fr-FR")} Gbit/s`),
    },
    {
      label: "Prix HT",
      value: (o) => perMonth(termsOf(o)[pricing.display === "ht" ? "monthly" : "monthlyOther"]),
    },
    {
      label: "Prix TTC",
      value: (o) => perMonth(termsOf(o)[pricing.display === "ttc" ? "monthly" : "monthlyOther"]),
    },
    { label: "Frais de mise en service", value: (o) => termsOf(o).setupFeeValue ?? "Non précisés" },
    // When and where, as on the cards: a field shown there is shown here.
    { label: "Disponibilité", value: (o) => <DeliveryLine offer={o} /> },
    { label: "Engagement", value: (o) => (o.engagement ? "Engagement requis" : "Sans engagement") },
    {
      label: "Contrat",
      value: (o) => {
        const loa = termsOf(o).loa;
        if (!loa) return o.contractType ?? dash;
        return (
          <>
            {o.contractType ? <p className="mb-1">{o.contractType}</p> : null}
            <dl className="space-y-1">
              <div>
                <dt className="inline text-muted-foreground">Durée : </dt>
                <dd className="inline">{loa.duration}</dd>
              </div>
              {loa.purchaseOption ? (
                <div>
                  <dt className="inline text-muted-foreground">Option d'achat : </dt>
                  <dd className="inline">{loa.purchaseOption}</dd>
                </div>
              ) : null}
              <div>
                <dt className="inline text-muted-foreground">Coût total : </dt>
                <dd className="inline">{loa.total}</dd>
              </div>
            </dl>
          </>
        );
      },
    },
  ];

  return (
    <div className="container mx-auto px-4 py-10">
      <BackLink to={withSource("/offers", src)} className="mb-6">
        Retour aux offres
      </BackLink>
      <h1 className="mb-6 text-3xl font-bold md:text-4xl">Comparer des offres</h1>

      {ignored > 0 ? (
        <p role="status" className="mb-4 rounded-lg border p-4 text-sm">
          Vous pouvez comparer jusqu'à {MAX_COMPARED} offres : {ignored}{" "}
          {pluralize(ignored, "offre a été ignorée", "offres ont été ignorées")}.
        </p>
      ) : null}
      {unavailable > 0 ? (
        <p role="status" className="mb-4 rounded-lg border p-4 text-sm">
          {unavailable}{" "}
          {pluralize(
            unavailable,
            "offre demandée n'existe pas ou n'est plus disponible",
            "offres demandées n'existent pas ou ne sont plus disponibles",
          )}
          .
        </p>
      ) : null}

      {offers.length === 0 ? (
        <div className="rounded-lg border border-dashed p-12 text-center">
          <p className="text-muted-foreground">
            Aucune offre à comparer. Cochez « Comparer » sur 2 ou {MAX_COMPARED} offres de la liste.
          </p>
          <Button asChild className="mt-4">
            <Link to={withSource("/offers", src)}>Voir nos offres</Link>
          </Button>
        </div>
      ) : (
        // On a phone the table scrolls sideways, the row names staying in view. `relative`: the
        // visually hidden texts (absolutely positioned) stay inside, not widening the page.
        <div className="relative overflow-x-auto rounded-lg border">
          <table className="w-full min-w-max border-collapse text-sm">
            <caption className="sr-only">
              Comparaison de {offers.length} {pluralize(offers.length, "offre", "offres")}
            </caption>
            <thead>
              <tr className="border-b bg-muted/40 align-top">
                <td className="sticky left-0 bg-muted p-3" />
                {offers.map((offer) => (
                  <th key={offer.id} scope="col" className="min-w-40 max-w-72 p-3 text-left">
                    <Badge variant={offer.type === "dedicated" ? "default" : "secondary"}>
                      {OFFER_TYPE_LABELS[offer.type]}
                    </Badge>
                    <Link
                      to={withSource(`/offers/${offer.slug}`, src)}
                      className="mt-2 block text-base font-semibold hover:text-primary"
                    >
                      {offer.title}
                    </Link>
                    <span className="block text-xs font-normal text-muted-foreground">
                      Réf. {offer.reference}
                    </span>
                    {offers.length > 1 ? (
                      <Link
                        to={withSource(
                          compareHref(offers.filter((o) => o !== offer).map((o) => o.slug)),
                          src,
                        )}
                        className="mt-2 inline-flex items-center gap-1 text-xs font-normal text-muted-foreground hover:text-primary"
                      >
                        <X className="size-3" aria-hidden="true" /> Retirer
                        <span className="sr-only"> {offer.title} de la comparaison</span>
                      </Link>
                    ) : null}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.label} className="border-b align-top">
                  <th
                    scope="row"
                    className="sticky left-0 w-28 bg-background p-3 text-left text-xs font-medium text-muted-foreground sm:w-48 sm:text-sm"
                  >
                    {row.label}
                  </th>
                  {offers.map((offer) => (
                    <td key={offer.id} className="max-w-72 p-3">
                      {row.value(offer)}
                    </td>
                  ))}
                </tr>
              ))}
              <tr className="align-top">
                <td className="sticky left-0 bg-background p-3" />
                {offers.map((offer) => (
                  <td key={offer.id} className="p-3">
                    <Button asChild className="w-full">
                      <Link to={withSource(`/contact?offer=${offer.id}`, src)}>
                        Commander<span className="sr-only"> {offer.title}</span>
                      </Link>
                    </Button>
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
