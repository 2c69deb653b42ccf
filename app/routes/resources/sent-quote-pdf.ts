import { cacheControl } from "~/lib/http-headers";
import { quotePagePdf } from "~/server/quote-page.server";
import { pdfBytesResponse, plainAnswer } from "./quote-response.server";
import type { Route } from "./+types/sent-quote-pdf";

const HEADERS = { ...cacheControl("private"), "X-Robots-Tag": "noindex" };

/** The PDF of a sent quote, by its link (issue 29): the same bytes as the buyer accepts. */
export async function loader({ params }: Route.LoaderArgs) {
  const found = await quotePagePdf(params.token);
  if (!found) return plainAnswer(404, "Ce lien de devis n'est pas valide.", HEADERS);
  return pdfBytesResponse(found.pdf, found.document.fileName, HEADERS);
}
