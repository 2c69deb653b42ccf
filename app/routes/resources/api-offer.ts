import { MESSAGES } from "~/lib/messages";
import { offerSlugSchema } from "~/lib/offer-api-schema";
import {
  apiJson,
  apiMethodNotAllowed,
  apiPreflight,
  apiProblem,
  apiRead,
} from "~/features/offers/api-response.server";
import { findApiOffer } from "~/features/offers/offer-api.server";
import { siteConfig } from "~/platform/site.server";
import type { Route } from "./+types/api-offer";

/** GET /api/offers/{slug}: one active offer as JSON (issue 30). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return apiPreflight();
  const { title, description } = MESSAGES.offerNotFound;
  const slug = offerSlugSchema.safeParse(params.slug);
  if (!slug.success) return apiProblem(404, title, description);
  return apiRead("api offer", context, async () => {
    const offer = await findApiOffer(slug.data, siteConfig());
    return offer ? apiJson(offer) : apiProblem(404, title, description);
  });
}

/** POST, PUT, PATCH, DELETE: 405 with Allow (a read-only address). */
export function action() {
  return apiMethodNotAllowed();
}
