import { ArrowRight, Clock, Headphones, Server, ShieldCheck } from "lucide-react";
import { data, Link } from "react-router";
import { JsonLd } from "~/features/offers/json-ld";
import { OfferCard, OfferCardIcons } from "~/components/offer-card";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { pageMeta, siteFromMatches } from "~/routes/public/meta";
import { organizationJsonLd } from "~/features/offers/structured-data";
import { useRootData } from "~/hooks/use-root-data";
import { useVisitSource } from "~/hooks/use-visit-source";
import { withSource } from "~/lib/attribution";
import type { RouteHandle } from "~/root";
import { withDatabase } from "~/platform/availability.server";
import { listFeaturedOffers } from "~/features/offers/offer-listing.server";
import type { Route } from "./+types/home";
import { cacheControl } from "~/lib/http-headers";

// Links only: no React needed in the browser.
export const handle: RouteHandle = { hydrate: false };

const FEATURED_COUNT = 3;

export async function loader({ context }: Route.LoaderArgs) {
  // The home page works without the database: it shows no featured offers, and that page is not
  // kept by caches (it would outlive the outage).
  return withDatabase(
    "featured offers",
    context,
    async () => ({ featured: await listFeaturedOffers(FEATURED_COUNT) }),
    { fallback: () => data({ featured: [] }, { headers: cacheControl("private") }) },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const cacheControl = loaderHeaders.get("Cache-Control");
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  return headers;
};

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: `${siteFromMatches(matches)?.name ?? "Accueil"} — Serveurs dédiés et location LOA`,
    description:
      "Serveurs dédiés haute performance et location avec option d'achat (LOA) : déploiement en moins de 24h, protection DDoS, surveillance 24h/24 et support 7j/7.",
    path: "/",
  });

const FEATURES: { icon: typeof Server; title: string; text?: string }[] = [
  {
    icon: Server,
    title: "Serveurs haute performance",
    // No text here: hardware is the provider's own statement (site configuration, SITE_HARDWARE_TEXT).
  },
  {
    icon: ShieldCheck,
    title: "Sécurité garantie",
    text: "Protection DDoS et surveillance de vos serveurs 24h/24.",
  },
  {
    icon: Headphones,
    title: "Support réactif",
    text: "Une équipe technique à votre écoute 7 jours sur 7.",
  },
  {
    icon: Clock,
    title: "Déploiement rapide",
    text: "Votre serveur est livré et prêt à l'emploi en moins de 24h.",
  },
];

// The bullet points are the provider's own (site configuration); the spec gives none.
const SOLUTIONS: {
  title: string;
  tag: string;
  text: string;
  points: "dedicatedPoints" | "loaPoints";
}[] = [
  {
    title: "Serveurs Dédiés",
    tag: "Recommandé",
    text: "Des ressources entièrement dédiées, sans partage, pour vos applications critiques, vos sites à fort trafic et vos bases de données.",
    points: "dedicatedPoints",
  },
  {
    title: "Location LOA",
    tag: "Flexible",
    text: "La location avec option d'achat : un loyer mensuel, et la possibilité d'acheter votre serveur en fin de contrat.",
    points: "loaPoints",
  },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { site } = useRootData();
  const src = useVisitSource();
  const { featured } = loaderData;
  return (
    <>
      <JsonLd data={organizationJsonLd(site)} />
      <section className="border-b bg-gradient-to-b from-primary/10 to-background">
        <div className="container mx-auto px-4 py-20 text-center md:py-28">
          <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight md:text-6xl">
            Des serveurs performants pour vos projets
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
            Serveurs dédiés et location avec option d'achat : des infrastructures fiables, livrées
            en moins de 24h et accompagnées par un support disponible 7 jours sur 7.
          </p>
          <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild size="lg">
              <Link to={withSource("/offers", src)}>
                Découvrir nos offres <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to={withSource("/contact", src)}>Nous contacter</Link>
            </Button>
          </div>
        </div>
      </section>

      <section aria-labelledby="atouts" className="container mx-auto px-4 py-16">
        <h2 id="atouts" className="mb-10 text-center text-3xl font-bold">
          Pourquoi nous choisir ?
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title}>
              <Card className="h-full">
                <CardHeader>
                  <Icon className="size-10 text-primary" aria-hidden="true" />
                  <CardTitle as="h3" className="text-lg">
                    {title}
                  </CardTitle>
                </CardHeader>
                <CardContent>
                  <p className="text-sm text-muted-foreground">{text ?? site.claims.hardware}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="solutions" className="bg-muted/40 py-16">
        <div className="container mx-auto px-4">
          <h2 id="solutions" className="mb-10 text-center text-3xl font-bold">
            Nos solutions
          </h2>
          <div className="grid gap-6 md:grid-cols-2">
            {SOLUTIONS.map((solution) => (
              <Link
                key={solution.title}
                to={withSource("/offers", src)}
                className="group rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Card className="h-full transition-shadow group-hover:shadow-md">
                  <CardHeader>
                    <div className="flex items-center justify-between gap-2">
                      <CardTitle as="h3">{solution.title}</CardTitle>
                      <Badge variant="secondary">{solution.tag}</Badge>
                    </div>
                    <CardDescription className="text-base">{solution.text}</CardDescription>
                  </CardHeader>
                  <CardContent>
                    <ul className="space-y-1 text-sm">
                      {site.claims[solution.points].map((point) => (
                        <li key={point}>✓ {point}</li>
                      ))}
                    </ul>
                    <span className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-primary">
                      Voir les offres <ArrowRight className="size-4" aria-hidden="true" />
                    </span>
                  </CardContent>
                </Card>
              </Link>
            ))}
          </div>
        </div>
      </section>

      {featured.length > 0 ? (
        <section aria-labelledby="a-la-une" className="container mx-auto px-4 pt-16">
          <OfferCardIcons />
          <h2 id="a-la-une" className="mb-10 text-center text-3xl font-bold">
            Offres à la une
          </h2>
          <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
            {featured.map((offer) => (
              <li key={offer.id}>
                <OfferCard offer={offer} headingLevel={3} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="cta" className="container mx-auto px-4 py-16 text-center">
        <h2 id="cta" className="text-3xl font-bold">
          Prêt à démarrer ?
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-muted-foreground">
          Comparez nos configurations ou décrivez-nous votre besoin : nous vous répondons
          rapidement.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to={withSource("/offers", src)}>Voir toutes les offres</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={withSource("/contact", src)}>Demander un devis</Link>
          </Button>
        </div>
      </section>
    </>
  );
}
