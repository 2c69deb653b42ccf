import { data, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { MESSAGES } from "~/lib/messages";
import { pageMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { log } from "~/platform/log.server";
import type { Route } from "./+types/not-found";

export const handle: RouteHandle = { hydrate: false };

export function loader({ request, context }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname;
  log.warn("page not found", { requestId: context.requestId, path: path.slice(0, 500) });
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Page introuvable",
    description: "La page demandée n'existe pas.",
    noindex: true,
  });

export default function NotFound() {
  return (
    <div className="container mx-auto flex min-h-[50vh] flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <p className="text-6xl font-bold text-primary">404</p>
      <h1 className="text-2xl font-bold">{MESSAGES.notFound}</h1>
      <Button asChild>
        <Link to="/">Retour à l'accueil</Link>
      </Button>
    </div>
  );
}
