import { Link } from "react-router";

/** The information notice under the contact form (RGPD art. 13), before its button. */
export function PrivacyNotice() {
  return (
    <p className="text-sm text-muted-foreground" data-privacy-notice="">
      Les informations saisies servent uniquement à répondre à votre demande et à assurer notre
      suivi commercial ; elles sont destinées à notre équipe commerciale. Pour en savoir plus sur
      leur durée de conservation et sur vos droits, consultez notre{" "}
      <Link
        to="/confidentialite"
        className="font-medium text-primary underline-offset-4 hover:underline"
      >
        politique de confidentialité
      </Link>
      .
    </p>
  );
}
