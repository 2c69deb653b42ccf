import { cacheControl, retryAfter, UNAVAILABLE_RETRY_SECONDS } from "~/lib/http-headers";
import { ERROR_MESSAGES } from "~/lib/messages";
import type { QuoteDocument } from "~/lib/quote";
import { quotePdf } from "~/features/quotes/quote-pdf.server";

// The HTTP answers of the two quote routes (public and admin).

/** The quote as a PDF download named after it. */
export async function pdfResponse(
  quote: QuoteDocument,
  headers: Record<string, string>,
): Promise<Response> {
  return pdfBytesResponse(await quotePdf(quote), quote.fileName, headers);
}

/** PDF bytes already made (the public quote, kept in memory) as a download. */
export function pdfBytesResponse(
  pdf: Buffer,
  fileName: string,
  headers: Record<string, string>,
): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      ...headers,
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.length),
      // File names are ASCII (a slug or a number): no RFC 5987 form needed.
      "Content-Disposition": `attachment; filename="${fileName}"`,
    },
  });
}

/** A refusal in French, as text: the address was followed from a link, not from a page. */
export function plainAnswer(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(`${message}\n`, {
    status,
    headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
  });
}

/**
 * The French 503 of a PDF address while the database is unreachable: the fallback of its
 * `withDatabase` (a resource route's thrown answer would reach the browser as React Router's JSON).
 */
export function unavailableAnswer(headers: Record<string, string> = {}) {
  const { title, detail } = ERROR_MESSAGES.unavailable;
  return plainAnswer(503, `${title}. ${detail}`, {
    ...headers,
    ...cacheControl("no-store"),
    ...retryAfter(UNAVAILABLE_RETRY_SECONDS),
  });
}
