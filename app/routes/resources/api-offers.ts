import { parseOfferApiQuery } from "~/lib/offer-api-schema";
import {
  apiJson,
  apiMethodNotAllowed,
  apiPreflight,
  apiProblem,
  apiRead,
} from "~/features/offers/api-response.server";
import { listApiOffers } from "~/features/offers/offer-api.server";
import { siteConfig } from "~/platform/site.server";
import type { Route } from "./+types/api-offers";

/** GET /api/offers: the listing's offers as JSON, the listing's parameters (issue 30). */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return apiPreflight();
  const query = parseOfferApiQuery(new URL(request.url).searchParams);
  if (!query.success) return apiProblem(400, "Paramètres invalides", query.message);
  return apiRead("api offers", context, async () =>
    apiJson(await listApiOffers(query, siteConfig())),
  );
}

/** POST, PUT, PATCH, DELETE: 405 with Allow (a read-only address). */
export function action() {
  return apiMethodNotAllowed();
}
