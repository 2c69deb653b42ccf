import { BellRing } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { CONTACT_LIMITS } from "~/lib/limits";
import { SAVED_SEARCH_PATH, SAVED_SEARCH_PRIVACY_NOTICE } from "./saved-searches";

/**
 * `Me prévenir des nouvelles offres` (issue 42) on a filtered listing: a plain POST form whose
 * address carries the listing's canonical query (no JavaScript, no token: the listing is cached,
 * the cross-site check guards the post), as the stock alert's form.
 */
export function SavedSearchForm({
  query,
  email,
  error,
}: {
  query: string;
  email?: string;
  error?: string;
}) {
  return (
    <form
      method="post"
      action={`${SAVED_SEARCH_PATH}${query}`}
      className="space-y-3 rounded-lg border p-4"
      aria-label="Me prévenir des nouvelles offres"
    >
      <p className="text-sm font-medium">Me prévenir des nouvelles offres de cette recherche</p>
      <Field id="saved-search-email" label="Votre adresse e-mail" error={error}>
        <Input
          name="email"
          type="email"
          required
          autoComplete="email"
          maxLength={CONTACT_LIMITS.email}
          defaultValue={email}
        />
      </Field>
      <Button type="submit" variant="secondary">
        <BellRing className="size-4" aria-hidden="true" />
        Me prévenir des nouvelles offres
      </Button>
      <p className="text-xs text-muted-foreground">
        {SAVED_SEARCH_PRIVACY_NOTICE}{" "}
        <Link to="/confidentialite" className="underline underline-offset-4 hover:text-primary">
          Politique de confidentialité
        </Link>
      </p>
    </form>
  );
}
