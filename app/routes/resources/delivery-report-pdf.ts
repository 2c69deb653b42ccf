import { cacheControl } from "~/lib/http-headers";
import { deliveryReportByToken } from "~/features/lease-file/delivery-report.server";
import { withDatabase } from "~/platform/availability.server";
import { pdfBytesResponse, plainAnswer, unavailableAnswer } from "./quote-response.server";
import type { Route } from "./+types/delivery-report-pdf";

const HEADERS = { ...cacheControl("private"), "X-Robots-Tag": "noindex" };

/**
 * The signed delivery report (issue 41) by the quote's link, for its buyer: the bytes kept when it
 * was signed, never laid out again.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const found = await withDatabase(
    "delivery report PDF",
    context,
    () => deliveryReportByToken(params.token),
    { fallback: () => unavailableAnswer(HEADERS) },
  );
  if (found instanceof Response) return found;
  if (!found) return plainAnswer(404, "Aucun procès-verbal de livraison signé à ce lien.", HEADERS);
  return pdfBytesResponse(found.pdf, found.fileName, HEADERS);
}
