import { BellRing } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ALERT_PATH, ALERT_PRIVACY_NOTICE } from "./alerts";
import { CONTACT_LIMITS } from "~/lib/limits";

/**
 * `Me prévenir` (issue 30) on a sold-out or on-order offer: a plain POST form (no JavaScript, no
 * token: the offer page is served from the page cache, and the cross-site check guards the post).
 */
export function AlertForm({
  slug,
  email,
  error,
}: {
  slug: string;
  email?: string;
  error?: string;
}) {
  return (
    <form
      method="post"
      action={`${ALERT_PATH}?offre=${encodeURIComponent(slug)}`}
      className="space-y-3 border-t pt-4"
      aria-label="Me prévenir quand l'offre est de nouveau disponible"
    >
      <p className="text-sm font-medium">Être prévenu(e) par e-mail quand elle sera disponible</p>
      <Field id="alert-email" label="Votre adresse e-mail" error={error}>
        <Input
          name="email"
          type="email"
          required
          autoComplete="email"
          maxLength={CONTACT_LIMITS.email}
          defaultValue={email}
        />
      </Field>
      <Button type="submit" variant="secondary" className="w-full">
        <BellRing className="size-4" aria-hidden="true" />
        Me prévenir
      </Button>
      <p className="text-xs text-muted-foreground">
        {ALERT_PRIVACY_NOTICE}{" "}
        <Link to="/confidentialite" className="underline underline-offset-4 hover:text-primary">
          Politique de confidentialité
        </Link>
      </p>
    </form>
  );
}
