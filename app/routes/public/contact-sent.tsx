import { CheckCircle2 } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { parseContactReference } from "~/platform/contact-reference";
import { MESSAGES } from "~/lib/messages";
import { pageMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import type { Route } from "./+types/contact-sent";

// Where a sent contact form lands (post/redirect/get, issue 19): reloading this page, or going back
// then forward to it, sends nothing again.
export const handle: RouteHandle = { hydrate: false };

// The reference comes from the address (a bookmark or a shared link shows it too, which is
// harmless: it names no one); anything that is not a reference is ignored.
export function loader({ request }: Route.LoaderArgs) {
  return { reference: parseContactReference(new URL(request.url).searchParams.get("ref")) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: MESSAGES.contactSent.title,
    description: MESSAGES.contactSent.description,
    path: "/contact/merci",
    noindex: true,
  });

export default function ContactSent({ loaderData }: Route.ComponentProps) {
  const { reference } = loaderData;
  return (
    <div className="container mx-auto px-4 py-10">
      <Card className="mx-auto max-w-xl">
        <CardHeader>
          <h1 className="flex items-center gap-3 text-2xl font-semibold">
            <CheckCircle2 className="size-7 text-primary" aria-hidden="true" />
            {MESSAGES.contactSent.title}
          </h1>
        </CardHeader>
        <CardContent className="space-y-6">
          <p role="status">{MESSAGES.contactSent.description}</p>
          {reference ? (
            <p>
              Votre référence : <strong className="font-mono">{reference}</strong>. Rappelez-la si
              vous nous contactez à propos de cette demande.
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Button asChild>
              <Link to="/offers">Voir nos offres</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/">Retour à l'accueil</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
