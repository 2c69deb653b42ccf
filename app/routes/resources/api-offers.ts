import { parseOfferApiQuery } from "~/features/offers/offer-api-schema";
import * as api from "~/features/offers/api-response.server";
import { listApiOffers } from "~/features/offers/offer-api.server";
import { siteConfig } from "~/platform/site.server";
import type { Route } from "./+types/api-offers";

/** GET /api/offers: the listing's offers as JSON, the listing's parameters (issue 30). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseOfferApiQuery(new URL(request.url).searchParams);
  if (!query.success) return api.apiProblem(400, "Paramètres invalides", query.message);
  return api.apiRead("api offers", context, async () =>
    api.apiJson(await listApiOffers(query, siteConfig())),
  );
}

/** POST, PUT, PATCH, DELETE: 405 with Allow (a read-only address). */
export const action = api.apiMethodNotAllowed;
