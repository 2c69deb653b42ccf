import { SubscriptionForm, type SubscriptionFormValues } from "~/components/subscription-form";
import { ALERT_PATH, ALERT_PRIVACY_NOTICE } from "./alerts";

/** `Me prévenir` (issue 30) on a sold-out or on-order offer: the form posts to /alertes?offre=. */
export function AlertForm({ slug, ...values }: SubscriptionFormValues & { slug: string }) {
  return (
    <SubscriptionForm
      action={`${ALERT_PATH}?offre=${encodeURIComponent(slug)}`}
      name="Me prévenir quand l'offre est de nouveau disponible"
      lead="Être prévenu(e) par e-mail quand elle sera disponible"
      fieldId="alert-email"
      submit="Me prévenir"
      notice={ALERT_PRIVACY_NOTICE}
      className="border-t pt-4"
      wide
      {...values}
    />
  );
}
