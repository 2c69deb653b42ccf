import fresh from "fresh";
import { parseConfigurationQuery } from "~/features/quotes/configuration-query-schema";
import { cacheControl, retryAfter } from "~/lib/http-headers";
import { ERROR_MESSAGES, MESSAGES } from "~/lib/messages";
import { withDatabase } from "~/platform/availability.server";
import { log } from "~/platform/log.server";
import { publicQuotePdf } from "~/features/quotes/public-quote.server";
import { pdfBytesResponse, plainAnswer, unavailableAnswer } from "./quote-response.server";
import type { Route } from "./+types/offer-quote[.]pdf";
import { countRefusal } from "~/platform/metrics.server";

/**
 * `Télécharger le devis (PDF)` (issue 21): the offer page's configuration as an A4 quote, the
 * same bytes all day (issue 28), limited per client and in concurrency.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const slug = params.slug;
  if (slug.length > 200 || !/^[a-z0-9-]+$/.test(slug)) {
    return plainAnswer(404, MESSAGES.offerNotFound.description);
  }
  const query = parseConfigurationQuery(new URL(request.url).search.slice(1));
  if (!query.success) return plainAnswer(400, query.message);
  const quote = await withDatabase(
    "offer quote",
    context,
    () => publicQuotePdf(slug, query.params, context.clientIp),
    { fallback: () => ({ kind: "unavailable" }) as const },
  );
  if (quote.kind === "unavailable") return unavailableAnswer();
  if (quote.kind === "missing") return plainAnswer(404, MESSAGES.offerNotFound.description);
  if (quote.kind === "rate-limited" || quote.kind === "busy") {
    const [status, message] =
      quote.kind === "busy" ? [503, ERROR_MESSAGES.quoteBusy] : [429, ERROR_MESSAGES.quoteLimited];
    countRefusal(quote.kind === "busy" ? "quote-pdf-busy" : "quote-pdf");
    const headers = { ...cacheControl("no-store"), ...retryAfter(quote.retryAfterSeconds) };
    return plainAnswer(status, message, headers);
  }
  log.info("offer quote", { requestId: context.requestId, slug, cached: quote.cached });
  // Dated today: kept by no shared cache; one address per configuration: not for search engines.
  const headers = {
    ...cacheControl("private-revalidate"),
    ETag: quote.etag,
    "X-Robots-Tag": "noindex",
  };
  const asked = { "if-none-match": request.headers.get("if-none-match") ?? undefined };
  if (fresh(asked, { etag: quote.etag })) return new Response(null, { status: 304, headers });
  return pdfBytesResponse(quote.pdf, quote.fileName, headers);
}
