import { Mail, Server } from "lucide-react";
import { useRootData } from "~/hooks/use-root-data";
import { useVisitSource } from "~/hooks/use-visit-source";
import { withSource } from "~/lib/attribution";
import { FEED_PATH, OPENAPI_PATH } from "~/lib/site";
import { NAV_LINKS } from "./site-header";

const SERVICES = ["Serveurs Dédiés", "Location LOA", "Solutions Sur Mesure", "Support Technique"];

const external = { target: "_blank", rel: "noopener noreferrer" } as const;

export function SiteFooter() {
  const { site, year } = useRootData();
  const mainHost = new URL(site.mainUrl).host;
  const src = useVisitSource();
  return (
    <footer className="mt-16 border-t bg-muted/40 [contain-intrinsic-size:auto_46rem] [content-visibility:auto] md:[contain-intrinsic-size:auto_19rem]">
      <div className="container mx-auto grid gap-8 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-3">
          <p className="flex items-center gap-2 text-lg font-bold">
            <Server className="size-5 text-primary" aria-hidden="true" />
            {site.name}
          </p>
          <p className="text-sm text-muted-foreground">
            Serveurs dédiés et location avec option d'achat pour les professionnels.
          </p>
        </div>
        <nav aria-label="Navigation du pied de page">
          <h2 className="mb-3 font-semibold">Navigation</h2>
          <ul className="space-y-2 text-sm">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <a
                  href={withSource(link.to, src)}
                  className="text-muted-foreground hover:text-primary"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="mb-3 font-semibold">Services</h2>
          <ul className="space-y-2 text-sm text-muted-foreground">
            {SERVICES.map((service) => (
              <li key={service}>{service}</li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="mb-3 font-semibold">Contact</h2>
          <ul className="space-y-2 text-sm">
            <li>
              <a
                href={`mailto:${site.email}`}
                className="inline-flex items-center gap-2 text-muted-foreground hover:text-primary"
              >
                <Mail className="size-4" aria-hidden="true" />
                {site.email}
              </a>
            </li>
            <li>
              <a
                href={site.mainUrl}
                {...external}
                className="text-muted-foreground hover:text-primary"
              >
                {mainHost}
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t">
        <div className="container mx-auto flex flex-col gap-2 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {year} {site.name}. Tous droits réservés.
          </p>
          <ul className="flex flex-wrap gap-x-4 gap-y-2">
            <li>
              {/* The site's own page unless SITE_LEGAL_URL points elsewhere. */}
              <a
                href={site.legalUrl}
                {...(site.legalUrl.startsWith("/") ? {} : external)}
                className="hover:text-primary"
              >
                Mentions légales
              </a>
            </li>
            <li>
              <a href={site.termsUrl} {...external} className="hover:text-primary">
                CGU
              </a>
            </li>
            <li>
              <a href="/confidentialite" className="hover:text-primary">
                Politique de confidentialité
              </a>
            </li>
            <li>
              {/* The catalogue for programs (issue 30): its OpenAPI document and the Atom feed. */}
              <a href={OPENAPI_PATH} type="application/json" className="hover:text-primary">
                API (OpenAPI)
              </a>
            </li>
            <li>
              <a href={FEED_PATH} type="application/atom+xml" className="hover:text-primary">
                Flux Atom
              </a>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
