import { BellRing } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Input } from "~/components/ui/input";
import { CONTACT_LIMITS } from "~/lib/limits";

/** What a subscription form shows again after a refused post: the typed address and its error. */
export type SubscriptionFormValues = { email?: string; error?: string };

/**
 * `Me prévenir` (a stock alert, issue 30; a saved search, issue 42): a plain POST form of one
 * address, whose own address names what is followed (no JavaScript, no token: the pages that carry
 * it are cached, and the cross-site check guards the post), with the privacy notice under it.
 */
export function SubscriptionForm({
  action,
  name,
  lead,
  fieldId,
  submit,
  notice,
  className,
  wide,
  email,
  error,
}: SubscriptionFormValues & {
  action: string;
  /** The form's accessible name. */
  name: string;
  lead: string;
  fieldId: string;
  submit: string;
  notice: string;
  className: string;
  wide?: boolean;
}) {
  return (
    <form method="post" action={action} className={`space-y-3 ${className}`} aria-label={name}>
      <p className="text-sm font-medium">{lead}</p>
      <Field id={fieldId} label="Votre adresse e-mail" error={error}>
        <Input
          name="email"
          type="email"
          required
          autoComplete="email"
          maxLength={CONTACT_LIMITS.email}
          defaultValue={email}
        />
      </Field>
      <Button type="submit" variant="secondary" className={wide ? "w-full" : undefined}>
        <BellRing className="size-4" aria-hidden="true" />
        {submit}
      </Button>
      <p className="text-xs text-muted-foreground">
        {notice}{" "}
        <Link to="/confidentialite" className="underline underline-offset-4 hover:text-primary">
          Politique de confidentialité
        </Link>
      </p>
    </form>
  );
}

/**
 * A subscription form's page, below its title: a refused post's alert; then, when there is
 * nothing to follow, why (`missing`, unless the refusal said it), after the post "check your
 * inbox" (`sent`), or else the form (`children`).
 */
export function SubscriptionAnswer({
  refused,
  missing,
  sent,
  children,
}: {
  refused?: { title: string; description?: string };
  missing?: string;
  sent?: { title: string; description: string };
  children: React.ReactNode;
}) {
  return (
    <>
      {refused ? <FormAlert title={refused.title} description={refused.description} /> : null}
      {missing !== undefined ? (
        refused ? null : (
          <p>{missing}</p>
        )
      ) : sent ? (
        <FormAlert variant="success" title={sent.title} description={sent.description} />
      ) : (
        children
      )}
    </>
  );
}
