import { CheckCircle2 } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { CardPage } from "~/components/card-page";
import { FormAlert } from "~/components/ui/form-alert";
import { ALERT_TOKEN_PARAM } from "./alerts";

/** The page of an alert mail's link: one card, a title, what happened or a button to do it. */
export function AlertLinkPage({
  title,
  done,
  children,
}: {
  title: string;
  done?: boolean;
  children: React.ReactNode;
}) {
  const icon = done ? <CheckCircle2 className="size-7 text-primary" aria-hidden="true" /> : null;
  return (
    <CardPage title={title} icon={icon}>
      {children}
    </CardPage>
  );
}

/** A link's button: posts the token back (the GET page never changes anything: mail scanners open links). */
export function TokenButton({
  action,
  token,
  label,
  variant,
}: {
  action: string;
  token: string;
  label: string;
  variant?: "default" | "destructive";
}) {
  return (
    <form method="post" action={action}>
      <input type="hidden" name={ALERT_TOKEN_PARAM} value={token} />
      <Button type="submit" variant={variant}>
        {label}
      </Button>
    </form>
  );
}

export function InvalidAlertLink({ title, description }: { title: string; description: string }) {
  return (
    <AlertLinkPage title={title}>
      <FormAlert description={description} />
      <Button asChild variant="outline">
        <Link to="/offers">Voir nos offres</Link>
      </Button>
    </AlertLinkPage>
  );
}

/** What a link's button did, in a sentence (an unsubscription). */
export function LinkDone({ title, description }: { title: string; description: string }) {
  return (
    <AlertLinkPage title={title} done>
      <p role="status">{description}</p>
    </AlertLinkPage>
  );
}

/**
 * A mailed link's page from its route's loader and action data (routes/public/token-link.server.ts):
 * after the button's post, what was `done`; before it, what the link would do and its button
 * (`ask`); an unknown or expired link, either way, says so.
 */
export function TokenLinkView<Found, Done>({
  loaderData,
  actionData,
  invalidLink,
  ask,
  done,
}: {
  loaderData: { found: Found | null; token: string };
  actionData?: { done: Done | null };
  invalidLink: { title: string; description: string };
  ask: (found: Found, token: string) => React.ReactNode;
  done: (done: Done) => React.ReactNode;
}) {
  const invalid = <InvalidAlertLink {...invalidLink} />;
  if (actionData) return actionData.done ? done(actionData.done) : invalid;
  return loaderData.found ? ask(loaderData.found, loaderData.token) : invalid;
}
