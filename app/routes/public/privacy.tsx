import { CONFIRMED_ALERT_MONTHS, UNCONFIRMED_ALERT_DAYS } from "~/features/alerts/alerts";
import {
  SEARCH_IDLE_MONTHS,
  UNCONFIRMED_SEARCH_DAYS,
} from "~/features/saved-searches/saved-searches";
import { LegalSection, legalLink } from "~/components/legal-section";
import { pageMeta } from "~/routes/public/meta";
import {
  retentionLabel,
  SPAM_RETENTION_DAYS,
  UNATTACHED_RETENTION_DAYS,
} from "~/platform/retention";
import { themeStorageKey } from "~/lib/site";
import { useRootData } from "~/hooks/use-root-data";
import type { RouteHandle } from "~/root";
import { env } from "~/platform/env.server";
import type { Route } from "./+types/privacy";

// Text and links only: no React in the browser (docs/decisions/005).
export const handle: RouteHandle = { hydrate: false };

export function loader() {
  const e = env();
  return {
    legalName: e.SITE_LEGAL_NAME,
    address: e.SITE_ADDRESS,
    retentionMonths: e.RETENTION_MONTHS,
    signedYears: e.SIGNED_QUOTE_RETENTION_YEARS,
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Politique de confidentialité",
    description:
      "Quelles données nous recueillons par le formulaire de contact, pourquoi, combien de temps nous les gardons et comment exercer vos droits.",
    path: "/confidentialite",
  });

const list = "list-disc space-y-1 pl-6";

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { legalName, address, retentionMonths, signedYears } = loaderData;
  const { site } = useRootData();
  const mail = (
    <a href={`mailto:${site.email}`} className={legalLink}>
      {site.email}
    </a>
  );
  return (
    <article className="container mx-auto max-w-3xl space-y-8 px-4 py-10 leading-relaxed">
      <header className="space-y-3">
        <h1 className="text-3xl font-bold md:text-4xl">Politique de confidentialité</h1>
        <p className="text-muted-foreground">
          Cette page explique ce que nous faisons des informations que vous nous confiez par le
          formulaire de contact, conformément au Règlement général sur la protection des données
          (RGPD) et à la loi Informatique et Libertés.
        </p>
      </header>

      <LegalSection id="responsable" title="Responsable du traitement">
        <p>
          Les données sont traitées par <strong>{legalName}</strong>, {address}, qui exploite le
          site {site.name}. Pour toute question sur vos données, écrivez-nous à {mail}.
        </p>
      </LegalSection>

      <LegalSection id="donnees" title="Données recueillies et finalités">
        <p>Lorsque vous nous écrivez par le formulaire de contact, nous enregistrons :</p>
        <ul className={list}>
          <li>
            votre nom, votre adresse e-mail et, si vous le donnez, votre numéro de téléphone ;
          </li>
          <li>votre message et, le cas échéant, l'offre qui vous intéresse ;</li>
          <li>
            si vous les donnez, le nom de votre société et son numéro SIREN (obligatoire pour une
            location avec option d'achat, réservée aux professionnels) ;
          </li>
          <li>
            la date de votre demande, puis le suivi que nous en faisons (statut, notes internes).
          </li>
        </ul>
        <p>Ces données nous servent à :</p>
        <ul className={list}>
          <li>répondre à votre demande (informations, devis, commande) ;</li>
          <li>assurer le suivi commercial de notre échange.</li>
        </ul>
        <p>
          Votre adresse IP sert seulement à limiter le nombre de messages envoyés depuis une même
          connexion (protection contre les abus) : elle n'est pas enregistrée avec votre demande
          (sauf si vous acceptez un devis en ligne, voir ci-dessous) et ce compteur est effacé au
          bout de deux jours au plus. Nous n'utilisons aucun outil de mesure d'audience ni de
          publicité.
        </p>
      </LegalSection>

      <LegalSection id="devis" title="Devis et acceptation en ligne">
        <p>
          Lorsque nous vous envoyons un devis, nous conservons son numéro, ses dates d'envoi et de
          validité, son contenu et votre réponse. Si vous l'acceptez en ligne (« Bon pour accord »),
          nous conservons le PDF accepté tel quel et son empreinte (SHA-256), avec l'identité du
          vendeur et les conditions générales de vente en vigueur, votre nom, votre fonction, la
          date, votre adresse IP et votre navigateur : c'est la preuve de votre accord, qui vaut
          signature électronique simple (règlement eIDAS) et commande.
        </p>
        <p>
          Un devis que vous n'avez pas accepté est conservé avec votre demande, pour la même durée
          (voir « Durée de conservation »), et effacé avec elle si vous nous le demandez. Un devis
          accepté est un document commercial : nous le conservons <strong>{signedYears} ans</strong>{" "}
          à compter de son acceptation, durée légale de conservation des documents commerciaux
          (article L123-22 du Code de commerce), pour respecter cette obligation et pouvoir établir
          la commande en cas de litige (articles 6.1.c et 17.3 du RGPD). Il n'est effacé ni avec
          votre demande, ni si vous demandez l'effacement de vos données ; nous vous le remettons
          sur simple demande.
        </p>
      </LegalSection>

      <LegalSection id="dossier-loa" title="Dossier de financement d'une location (LOA)">
        <p>
          Une location avec option d'achat est financée par notre partenaire financeur. Après
          l'acceptation du devis, les pièces qu'il demande (extrait Kbis, pièce d'identité du
          dirigeant, RIB, derniers comptes…) sont déposées depuis le lien du devis. Nous les
          conservons avec votre demande, avec leur nom, leur type, leur taille et leur empreinte
          (SHA-256) ; seule notre équipe commerciale peut les télécharger, et chaque téléchargement
          est tracé. Elles servent uniquement à constituer votre dossier et à le transmettre au
          financeur, qui les traite ensuite pour son propre compte (étude de votre demande de
          financement : mesures précontractuelles, article 6.1.b du RGPD).
        </p>
        <p>
          Elles sont conservées et effacées avec votre demande (voir « Durée de conservation »), et
          effacées avec elle si vous nous le demandez. Le procès-verbal de livraison que vous signez
          en ligne est, comme un devis accepté, un document commercial conservé{" "}
          <strong>{signedYears} ans</strong> à compter de sa signature.
        </p>
      </LegalSection>

      <LegalSection id="alertes" title="Alertes de disponibilité (« Me prévenir »)">
        <p>
          Sur une offre épuisée ou sur commande, le bouton « Me prévenir » enregistre votre adresse
          e-mail, l'offre concernée et les dates de votre demande, de sa confirmation et de notre
          e-mail. Ce sont des données personnelles : elles servent uniquement à vous envoyer un
          e-mail de confirmation, puis un seul e-mail quand l'offre est de nouveau disponible, sur
          la base de votre consentement (article 6.1.a du RGPD), confirmé par le lien reçu.
        </p>
        <p>
          Une alerte non confirmée est effacée au bout de {UNCONFIRMED_ALERT_DAYS} jours ; une
          alerte confirmée, {CONFIRMED_ALERT_MONTHS} mois après sa confirmation. Chaque e-mail
          contient un lien de désinscription qui l'efface aussitôt, en un clic. Comme pour le
          formulaire de contact, votre adresse IP sert seulement à limiter le nombre de demandes.
        </p>
        <p>
          De même, « Me prévenir des nouvelles offres » sur une liste filtrée enregistre votre
          adresse, la recherche et ses dates, sur votre consentement confirmé par le lien reçu : au
          plus un e-mail par jour, un lien de désinscription dans chacun, et la recherche effacée
          après {UNCONFIRMED_SEARCH_DAYS} jours sans confirmation ou {SEARCH_IDLE_MONTHS} mois sans
          nouvelle offre.
        </p>
      </LegalSection>

      <LegalSection id="bases-legales" title="Bases légales">
        <ul className={list}>
          <li>
            Répondre à votre demande : mesures précontractuelles prises à votre demande (article
            6.1.b du RGPD).
          </li>
          <li>
            Suivi commercial : notre intérêt légitime à donner suite aux échanges avec nos prospects
            et clients (article 6.1.f du RGPD).
          </li>
          <li>
            Devis acceptés : exécution de la commande (article 6.1.b), puis obligation légale de
            conservation des documents commerciaux (article 6.1.c du RGPD).
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="destinataires" title="Destinataires">
        <p>
          Vos données sont destinées à l'équipe commerciale de {site.name} et, pour une location
          avec option d'achat, au financeur à qui votre dossier est transmis. Lorsque les
          notifications par e-mail sont activées, votre demande est transmise à l'équipe par e-mail
          : notre prestataire d'envoi d'e-mails la traite alors pour notre compte. Vos données ne
          sont ni vendues ni cédées à d'autres tiers.
        </p>
      </LegalSection>

      <LegalSection id="conservation" title="Durée de conservation">
        <p>
          Nous conservons votre demande <strong>{retentionLabel(retentionMonths)}</strong> à compter
          de notre dernier échange à son sujet (votre demande, puis chaque suivi de notre part).
          Passé ce délai, elle est supprimée automatiquement avec tout ce qui s'y rattache. Les
          messages identifiés comme indésirables (spam) sont supprimés après {SPAM_RETENTION_DAYS}{" "}
          jours. Un devis accepté en ligne est conservé à part, {signedYears} ans à compter de son
          acceptation (voir « Devis et acceptation en ligne »).
        </p>
        <p>
          Les messages que nous échangeons par e-mail au sujet de votre demande sont conservés avec
          elle. Un message reçu que nous ne pouvons rattacher à aucune demande est supprimé après{" "}
          {UNATTACHED_RETENTION_DAYS} jours.
        </p>
        <p>
          Nos copies de sauvegarde, qui servent uniquement à restaurer le service en cas d'incident,
          sont effacées à l'issue de leur propre durée de conservation.
        </p>
      </LegalSection>

      <LegalSection id="droits" title="Vos droits">
        <p>
          Vous disposez d'un droit d'accès, de rectification, d'effacement, d'opposition, de
          limitation du traitement et de portabilité de vos données (articles 15 à 21 du RGPD).
        </p>
        <p>
          Pour les exercer, écrivez-nous à {mail} depuis l'adresse e-mail utilisée dans votre
          demande (ou en nous permettant de vérifier qu'elle est bien la vôtre). Nous vous répondons
          dans un délai d'un mois. Sur demande, nous vous remettons vos données dans un fichier
          lisible par une machine (JSON).
        </p>
      </LegalSection>

      <LegalSection id="cnil" title="Réclamation auprès de la CNIL">
        <p>
          Si vous estimez, après nous avoir contactés, que vos droits ne sont pas respectés, vous
          pouvez adresser une réclamation à la Commission nationale de l'informatique et des
          libertés (CNIL), 3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07, ou sur{" "}
          <a href="https://www.cnil.fr/fr/plaintes" className={legalLink}>
            www.cnil.fr/fr/plaintes
          </a>
          .
        </p>
      </LegalSection>

      <LegalSection id="cookies" title="Cookies et stockage dans le navigateur">
        <p>Le site n'utilise que ce qui est strictement nécessaire à son fonctionnement :</p>
        <ul className={list}>
          <li>
            le choix du thème clair ou sombre, gardé dans votre navigateur (stockage local, clé{" "}
            <code>{themeStorageKey(site)}</code>) et jamais transmis à nos serveurs ;
          </li>
          <li>
            pour les seuls administrateurs du site, un cookie de session (connexion à l'espace
            d'administration, 7 jours au plus) et un cookie d'une minute qui porte le message de
            confirmation de la page suivante.
          </li>
        </ul>
        <p>
          Ces éléments sont strictement nécessaires : ils ne demandent pas votre consentement, c'est
          pourquoi le site n'affiche pas de bandeau de cookies.
        </p>
      </LegalSection>

      <LegalSection id="mesure-audience" title="Mesure d'audience et origine des demandes">
        <p>
          Nous comptons, pour chaque offre et chaque jour, le nombre de pages de l'offre affichées
          (les robots exclus). Ce compteur est un total : il ne garde ni adresse IP, ni identifiant,
          ni cookie, et ne permet de reconnaître personne. Il est conservé 25 mois au plus, puis
          effacé.
        </p>
        <p>
          Quand vous arrivez sur le site par un lien de campagne (paramètres <code>utm_*</code>) ou
          depuis un autre site, la campagne et le nom de ce site accompagnent votre visite dans
          l'adresse des pages (paramètre <code>src</code>), sans cookie ni stockage dans votre
          navigateur. Si vous nous écrivez, ils sont enregistrés avec votre demande et conservés
          aussi longtemps qu'elle.
        </p>
        <p>
          Le lien « Ma demande » de l'e-mail de confirmation est personnel : seule son empreinte est
          gardée, et il disparaît avec la demande. Vous pouvez en demander un nouveau depuis la page{" "}
          <a href="/ma-demande" className={legalLink}>
            Retrouver ma demande
          </a>
          .
        </p>
      </LegalSection>
    </article>
  );
}
