import { cacheControl, retryAfter } from "~/lib/http-headers";
import { ERROR_MESSAGES } from "~/lib/messages";
import { withDatabase } from "~/platform/availability.server";
import { log } from "~/platform/log.server";
import { countRefusal } from "~/platform/metrics.server";
import { limitedQuoteRender } from "~/features/quotes/public-quote.server";
import { quotePagePdf } from "~/features/quotes/quote-page.server";
import { pdfBytesResponse, plainAnswer, unavailableAnswer } from "./quote-response.server";
import type { Route } from "./+types/sent-quote-pdf";

const HEADERS = { ...cacheControl("private"), "X-Robots-Tag": "noindex" };

/**
 * The PDF of a sent quote, by its link (issue 29): the same bytes as the buyer accepts, and once
 * accepted the bytes kept then (issue 40). Laid out per request until then, so under the offer
 * quote PDF's limits (per client, then the render turns).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const rendered = await withDatabase(
    "sent quote PDF",
    context,
    () => limitedQuoteRender(context.clientIp, () => quotePagePdf(params.token)),
    { fallback: () => ({ kind: "unavailable" }) as const },
  );
  if (rendered.kind === "unavailable") return unavailableAnswer(HEADERS);
  if (rendered.kind !== "rendered") {
    const [status, message] =
      rendered.kind === "busy"
        ? [503, ERROR_MESSAGES.quoteBusy]
        : [429, ERROR_MESSAGES.quoteLimited];
    countRefusal(rendered.kind === "busy" ? "quote-pdf-busy" : "quote-pdf");
    log.info("sent quote PDF refused", { requestId: context.requestId, why: rendered.kind });
    const headers = {
      ...HEADERS,
      ...cacheControl("no-store"),
      ...retryAfter(rendered.retryAfterSeconds),
    };
    return plainAnswer(status, message, headers);
  }
  const found = rendered.value;
  if (!found) return plainAnswer(404, "Ce lien de devis n'est pas valide.", HEADERS);
  return pdfBytesResponse(found.pdf, found.fileName, HEADERS);
}
