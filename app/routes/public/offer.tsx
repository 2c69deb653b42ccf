import {
  CalendarClock,
  Cpu,
  FileDown,
  FileText,
  HandCoins,
  HardDrive,
  MemoryStick,
  Network,
  Sigma,
  type LucideIcon,
} from "lucide-react";
import { data, Link } from "react-router";
import offerConfigureScriptUrl from "~/client/offer-configure.ts?script";
import { JsonLd } from "~/features/offers/json-ld";
import { OfferConfigurator } from "~/features/offers/offer-configurator";
import { IconFact } from "~/components/icon-fact";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/input";
import { DeliveryLine } from "~/components/offer-badges";
import { MarkdownHtml } from "~/components/markdown";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { BackLink } from "~/components/ui/back-link";
import { Card, CardContent, CardHeader, SectionCard } from "~/components/ui/card";
import { AVAILABLE_NOW, isSoldOut, schemaOrgAvailability } from "~/lib/offer-fields";
import { AlertForm } from "~/features/alerts/alert-form";
import * as dom from "~/lib/dom-hooks";
import { OFFER_TYPE_LABELS } from "~/lib/domain";
import { MESSAGES } from "~/lib/messages";
import { pageMeta, siteFromMatches } from "~/routes/public/meta";
import { LEASE_PARAM, leaseMention } from "~/lib/offer-price";
import { centsText, monthlyLabel, perMonth, type Pricing } from "~/lib/money";
import { configure, contactHref, readSelection, selectionParams } from "~/lib/offer-options";
import { quoteHref } from "~/lib/quote";
import { configuredTermsSource, offerTerms } from "~/lib/offer-price";
import { productJsonLd } from "~/features/offers/structured-data";
import { useRootData } from "~/hooks/use-root-data";
import { useVisitSource } from "~/hooks/use-visit-source";
import { SOURCE_PARAM, withSource } from "~/lib/attribution";
import type { RouteHandle } from "~/root";
import { withDatabase } from "~/platform/availability.server";
import { env } from "~/platform/env.server";
import { leaseTerms } from "~/features/offers/lease.server";
import { log } from "~/platform/log.server";
import { markdownHtml } from "~/components/markdown.server";
import { currentOfferBySlug } from "~/features/offers/offer-listing.server";
import type { Offer } from "~/platform/schema.server";
import type { Route } from "./+types/offer";

// No React in the browser: the configuration's price card is app/client/offer-configure.ts.
export const handle: RouteHandle = { hydrate: false, scripts: [offerConfigureScriptUrl] };

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const slug = params.slug;
  // Slugs are short ASCII; anything else cannot match and is answered without a query.
  const offer =
    slug.length <= 200 && /^[a-z0-9-]+$/.test(slug)
      ? await withDatabase("offer detail", context, () => currentOfferBySlug(slug))
      : undefined;
  if (!offer) {
    log.info("offer not found", { requestId: context.requestId, slug: slug.slice(0, 200) });
    return data({ offer: null, configured: null, descriptionHtml: null }, { status: 404 });
  }
  const query = new URL(request.url).searchParams;
  const groups = offer.options ?? [];
  const selection = readSelection(groups, query);
  const lease = await leaseFor(offer, query, context);
  // With a lease, the monthly price is the rent of the chosen duration.
  const base = lease ? { ...offer, price: centsText(lease.quote.monthly) } : offer;
  const configuration = configure(base, groups, selection);
  return {
    offer,
    // Rendered once per description (no hydration: the browser never renders it again).
    descriptionHtml: offer.description ? markdownHtml(offer.description) : null,
    configured: {
      groups,
      selection,
      configuration,
      lease,
      /** The canonical query of the choice, carried to the contact form. */
      query: withDuration(selectionParams(groups, selection), lease).toString(),
    },
  };
}

async function leaseFor(
  offer: Parameters<typeof leaseTerms>[0],
  query: URLSearchParams,
  context: Route.LoaderArgs["context"],
) {
  const terms = await withDatabase("lease scale", context, () => leaseTerms(offer, query));
  return terms && { ...terms, partner: env().LEASING_PARTNER };
}

function withDuration(params: URLSearchParams, lease: { quote: { months: number } } | null) {
  if (lease) params.set(LEASE_PARAM, String(lease.quote.months));
  return params;
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const offer = loaderData?.offer;
  if (!offer) {
    return pageMeta({
      matches,
      title: MESSAGES.offerNotFound.title,
      description: MESSAGES.offerNotFound.description,
      noindex: true,
    });
  }
  const pricing = siteFromMatches(matches)?.pricing ?? { vatRate: 20, display: "ht" };
  return pageMeta({
    matches,
    title: offerTitle(offer),
    description: offerDescription(offer, pricing),
    path: `/offers/${offer.slug}`,
    type: "product",
  });
};

type OfferSummary = Pick<
  Offer,
  "title" | "type" | "cpu" | "ram" | "storage" | "price" | "metaTitle" | "metaDescription"
>;

/** meta_title when set, else the title and the kind of offer. */
function offerTitle(offer: OfferSummary): string {
  return offer.metaTitle || `${offer.title} — ${OFFER_TYPE_LABELS[offer.type]}`;
}

/** meta_description when set, else the title with a summary of the specs and the price. */
function offerDescription(offer: OfferSummary, pricing: Pricing): string {
  const summary = `${OFFER_TYPE_LABELS[offer.type]} ${offer.cpu}, ${offer.ram}, ${offer.storage} — ${monthlyLabel(offer.price, pricing)}.`;
  return offer.metaDescription || `${offer.title} : ${summary}`;
}

export default function OfferDetail({ loaderData }: Route.ComponentProps) {
  const { offer, configured, descriptionHtml } = loaderData;
  const { site } = useRootData();
  const src = useVisitSource();
  if (!offer || !configured) {
    return (
      <div className="container mx-auto flex min-h-[50vh] flex-col items-center justify-center gap-4 px-4 py-16 text-center">
        <h1 className="text-3xl font-bold">{MESSAGES.offerNotFound.title}</h1>
        <p className="text-muted-foreground">{MESSAGES.offerNotFound.description}</p>
        <Button asChild>
          <Link to="/offers">Voir nos offres</Link>
        </Button>
      </div>
    );
  }

  const { configuration } = configured;
  // The price card shows the configured price: the base plus the chosen options' supplements.
  const { lease } = configured;
  const terms = offerTerms(configuredTermsSource(offer, configuration, lease?.quote), site.pricing);
  const soldOut = isSoldOut(offer);
  const contact = withSource(contactHref(offer.id, configured.query), src);
  return (
    <div className="container mx-auto px-4 py-10">
      <JsonLd
        data={productJsonLd(site, {
          slug: offer.slug,
          title: offer.title,
          reference: offer.reference,
          type: offer.type,
          price: offer.price,
          description: offerDescription(offer, site.pricing),
          availability: schemaOrgAvailability(offer),
        })}
      />
      <BackLink to={withSource("/offers", src)} className="mb-6">
        Retour aux offres
      </BackLink>
      <div className="grid gap-8 lg:grid-cols-3">
        <article className="space-y-6 lg:col-span-2">
          <header className="space-y-3">
            <Badge variant={offer.type === "dedicated" ? "default" : "secondary"}>
              {offer.type === "dedicated" ? "Serveur Dédié" : "Location LOA"}
            </Badge>
            <h1 className="text-3xl font-bold md:text-4xl">{offer.title}</h1>
            <p className="text-muted-foreground">Référence : {offer.reference}</p>
          </header>
          {descriptionHtml ? <MarkdownHtml html={descriptionHtml} /> : null}

          {configured.groups.length || lease ? (
            <Card>
              <CardContent className="p-6">
                <OfferConfigurator
                  action={`/offers/${offer.slug}`}
                  groups={configured.groups}
                  selection={configured.selection}
                >
                  {src ? <input type="hidden" name={SOURCE_PARAM} value={src} /> : null}
                  {lease ? (
                    <Field id="lease-duration" label="Durée">
                      <NativeSelect name={LEASE_PARAM} defaultValue={String(lease.quote.months)}>
                        {lease.offered.map((months) => (
                          <option key={months} value={months}>
                            {months} mois
                          </option>
                        ))}
                      </NativeSelect>
                    </Field>
                  ) : null}
                </OfferConfigurator>
              </CardContent>
            </Card>
          ) : null}

          <OfferFacts offer={offer} loa={terms.loa} />
        </article>

        <aside className="lg:col-span-1">
          <Card className="lg:sticky lg:top-24" {...dom.hook(dom.OFFER_PRICE_CARD)}>
            <CardHeader>
              <p className="text-3xl font-bold text-primary xl:text-4xl">
                {terms.monthly}
                <span className="text-base font-normal text-muted-foreground">{perMonth("")}</span>
              </p>
              <p className="text-sm text-muted-foreground">soit {perMonth(terms.monthlyOther)}</p>
              {terms.setupFee ? <p className="text-sm">{terms.setupFee}</p> : null}
              {offer.engagement ? (
                <p className="text-sm text-muted-foreground">Avec engagement</p>
              ) : null}
              {configuration.lines.some((l) => l.monthly || l.setup) ? (
                <ul className="space-y-1 border-t pt-2 text-sm" aria-label="Configuration choisie">
                  {configuration.lines.map((line) => (
                    <li key={line.group}>
                      {line.group} : {line.value}
                    </li>
                  ))}
                </ul>
              ) : null}
              {lease && terms.loa ? (
                // The mention is a paragraph after the list: a <dl> holds only its pairs.
                <div className="space-y-1 border-t pt-2 text-sm">
                  <dl className="space-y-1" aria-label="Location avec option d'achat">
                    <div>
                      <dt className="inline text-muted-foreground">Durée : </dt>
                      <dd className="inline">{terms.loa.duration}</dd>
                    </div>
                    <div>
                      <dt className="inline text-muted-foreground">Option d'achat : </dt>
                      <dd className="inline">{terms.loa.purchaseOption}</dd>
                    </div>
                    <div>
                      <dt className="inline text-muted-foreground">Coût total : </dt>
                      <dd className="inline">{terms.loa.total}</dd>
                    </div>
                  </dl>
                  <p className="pt-1 text-xs text-muted-foreground">
                    {leaseMention(lease.partner)} Simulation indicative.
                  </p>
                </div>
              ) : null}
              <DeliveryLine offer={offer} className="pt-2" />
            </CardHeader>
            <CardContent className="space-y-3">
              {/* An exhausted offer can still be asked about, not ordered. */}
              {soldOut ? null : (
                <Button asChild size="lg" className="w-full">
                  <a href={contact}>Commander maintenant</a>
                </Button>
              )}
              <Button
                asChild
                size="lg"
                variant={soldOut ? "default" : "outline"}
                className="w-full"
              >
                <a href={contact}>Demander des informations</a>
              </Button>
              {/* In the price card: the configuration script swaps its href with the card. */}
              <Button asChild variant="ghost" className="w-full">
                <a href={quoteHref(offer.slug, configured.query)} download>
                  <FileDown className="size-4" aria-hidden="true" />
                  Télécharger le devis (PDF)
                </a>
              </Button>
              <p className="pt-2 text-center text-sm text-muted-foreground">
                Besoin d'aide ? Contactez notre équipe commerciale
              </p>
              {/* Sold out or on order: `Me prévenir` when it is deliverable again (issue 30). */}
              {AVAILABLE_NOW.includes(offer.delivery) ? null : <AlertForm slug={offer.slug} />}
            </CardContent>
          </Card>
        </aside>
      </div>
    </div>
  );
}

/** An icon, a label and a value; left out without a value. */
type Fact = [LucideIcon, string, string | null | undefined];

/** The offer's specifications and contract terms. */
function OfferFacts({
  offer,
  loa,
}: {
  offer: Pick<Offer, "cpu" | "ram" | "storage" | "network" | "contractType" | "engagement">;
  loa: ReturnType<typeof offerTerms>["loa"];
}) {
  const sections: [string, Fact[]][] = [
    [
      "Spécifications techniques",
      [
        [Cpu, "Processeur", offer.cpu],
        [MemoryStick, "Mémoire RAM", offer.ram],
        [HardDrive, "Stockage", offer.storage],
        [Network, "Réseau", offer.network],
      ],
    ],
    [
      "Conditions contractuelles",
      [
        [FileText, "Type de contrat", offer.contractType],
        [FileText, "Engagement", offer.engagement ? "Engagement requis" : "Sans engagement"],
        [CalendarClock, "Durée", loa?.duration],
        [HandCoins, "Option d'achat", loa?.purchaseOption],
        [Sigma, "Coût total", loa?.total],
      ],
    ],
  ];
  return sections.map(([title, facts]) => (
    <SectionCard key={title} title={title}>
      <dl className="grid gap-4 sm:grid-cols-2">
        {facts.map(([icon, label, value]) =>
          value ? (
            <IconFact key={label} icon={icon} label={label}>
              {value}
            </IconFact>
          ) : null,
        )}
      </dl>
    </SectionCard>
  ));
}
