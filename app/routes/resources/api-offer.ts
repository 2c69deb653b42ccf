import { MESSAGES } from "~/lib/messages";
import { offerSlugSchema } from "~/features/offers/offer-api-schema";
import * as api from "~/features/offers/api-response.server";
import { findApiOffer } from "~/features/offers/offer-api.server";
import { siteConfig } from "~/platform/site.server";
import type { Route } from "./+types/api-offer";

/** GET /api/offers/{slug}: one active offer as JSON (issue 30). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { title, description } = MESSAGES.offerNotFound;
  const slug = offerSlugSchema.safeParse(params.slug);
  if (!slug.success) return api.apiProblem(404, title, description);
  return api.apiRead("api offer", context, async () => {
    const offer = await findApiOffer(slug.data, siteConfig());
    return offer ? api.apiJson(offer) : api.apiProblem(404, title, description);
  });
}

/** POST, PUT, PATCH, DELETE: 405 with Allow (a read-only address). */
export const action = api.apiMethodNotAllowed;
