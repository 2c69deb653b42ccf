import { LegalSection, legalLink } from "~/components/legal-section";
import { Link } from "react-router";
import { pageMeta } from "~/routes/public/meta";
import { LEGAL_NOTICE_PATH } from "~/lib/site";
import { useRootData } from "~/hooks/use-root-data";
import type { RouteHandle } from "~/root";
import { legalNotice } from "~/platform/site.server";
import type { Route } from "./+types/legal-notice";

// The site's legal notice (issue 21; LCEN article 6-III), built from the configuration
// (SITE_LEGAL_NAME, SITE_LEGAL_FORM, SITE_CAPITAL, SITE_SIREN…). Text only: no React in the
// browser (docs/decisions/005).
export const handle: RouteHandle = { hydrate: false };

export function loader() {
  return legalNotice();
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Mentions légales",
    description:
      "Éditeur du site, immatriculation, directeur de la publication et hébergeur : les mentions légales du site.",
    path: LEGAL_NOTICE_PATH,
  });

function Facts({ items }: { items: [string, React.ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function LegalNotice({ loaderData: notice }: Route.ComponentProps) {
  const { site } = useRootData();
  return (
    <article className="container mx-auto max-w-3xl space-y-8 px-4 py-10 leading-relaxed">
      <header className="space-y-3">
        <h1 className="text-3xl font-bold md:text-4xl">Mentions légales</h1>
        <p className="text-muted-foreground">
          Informations sur l'éditeur et l'hébergeur du site {notice.siteName}, conformément à
          l'article 6 de la loi n° 2004-575 du 21 juin 2004 pour la confiance dans l'économie
          numérique.
        </p>
      </header>

      <LegalSection id="editeur" title="Éditeur du site">
        <Facts
          items={[
            ["Raison sociale", notice.legalName],
            ["Forme juridique", notice.legalForm],
            ["Capital social", notice.capital],
            ["Siège social", notice.address],
            ["SIREN", notice.siren],
            ["RCS", `RCS ${notice.rcs} ${notice.siren}`],
            ["N° de TVA intracommunautaire", notice.vatNumber],
            [
              "Contact",
              <>
                <a href={`mailto:${notice.email}`} className={legalLink}>
                  {notice.email}
                </a>{" "}
                — {notice.phone}
              </>,
            ],
          ]}
        />
      </LegalSection>

      <LegalSection id="publication" title="Directeur de la publication">
        <p>{notice.publicationDirector}</p>
      </LegalSection>

      <LegalSection id="hebergeur" title="Hébergeur">
        <Facts
          items={[
            ["Nom", notice.hostName],
            ["Adresse", notice.hostAddress],
          ]}
        />
      </LegalSection>

      <LegalSection id="donnees" title="Données personnelles">
        <p>
          Ce que nous faisons des informations envoyées par le formulaire de contact, et vos droits,
          sont décrits dans notre{" "}
          <Link to="/confidentialite" className={legalLink}>
            politique de confidentialité
          </Link>
          , qui dit aussi ce que le site {site.name} garde dans votre navigateur.
        </p>
      </LegalSection>
    </article>
  );
}
