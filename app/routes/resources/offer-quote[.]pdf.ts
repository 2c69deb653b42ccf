import { parseConfigurationQuery } from "~/lib/configuration-query-schema";
import { cacheControl } from "~/lib/http-headers";
import { MESSAGES } from "~/lib/messages";
import { withDatabase } from "~/server/availability.server";
import { log } from "~/server/log.server";
import { pdfResponse, plainAnswer } from "./quote-response.server";
import { offerQuote } from "~/server/quotes.server";
import type { Route } from "./+types/offer-quote[.]pdf";

/** `Télécharger le devis (PDF)` (issue 21): the offer page's configuration as an A4 quote. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const slug = params.slug;
  if (slug.length > 200 || !/^[a-z0-9-]+$/.test(slug)) {
    return plainAnswer(404, MESSAGES.offerNotFound.description);
  }
  const query = parseConfigurationQuery(new URL(request.url).search.slice(1));
  if (!query.success) return plainAnswer(400, query.message);
  const quote = await withDatabase("offer quote", context, () => offerQuote(slug, query.params));
  if (!quote) return plainAnswer(404, MESSAGES.offerNotFound.description);
  log.info("offer quote", { requestId: context.requestId, slug });
  // Dated today: kept by no shared cache; one address per configuration: not for search engines.
  return pdfResponse(quote, { ...cacheControl("private"), "X-Robots-Tag": "noindex" });
}
