import type { QuoteDocument } from "~/lib/quote";
import type { SignedTerms } from "~/platform/signed-documents";
import { signedDocumentOf } from "~/platform/signed-documents.server";
import { termsOfSale } from "./quote-answer.server";
import { isbot } from "isbot";
import {
  buyerPdf,
  quoteByToken,
  quoteState,
  recordQuoteOpened,
  type QuoteState,
} from "./quote-sending.server";
import { quoteRowDocument } from "./quotes.server";

// The buyer's page of a sent quote (issue 29), read by its link's token.

export type QuotePage =
  | { kind: "missing" }
  | {
      kind: "quote";
      state: QuoteState;
      document: QuoteDocument;
      validUntil: Date | null;
      acceptedAt: Date | null;
      declinedAt: Date | null;
      /** The terms an acceptance agrees to: now, or as recorded when it was signed. */
      terms: SignedTerms;
      /** The accepted PDF's SHA-256, as recorded (issue 40). */
      signedSha256: string | null;
      /** The request it answers (server-side use: the LOA file of issue 41). */
      contactRequestId: number;
    };

export async function quotePage(
  token: string,
  viewer: { userAgent: string | null; opened?: boolean } = { userAgent: null },
): Promise<QuotePage> {
  const quote = await quoteByToken(token);
  if (!quote?.sentAt) return { kind: "missing" };
  // Its owner is told of the first opening; a mail scanner's visit is not the buyer's.
  const opening = viewer.opened !== false && !isbot(viewer.userAgent);
  if (!quote.openedAt && quoteState(quote) === "open" && opening) {
    await recordQuoteOpened(quote.id);
  }
  const customer = quote.terms?.customer ?? { name: "", email: "" };
  const signed = quote.acceptedAt ? await signedDocumentOf("quote", quote.id) : undefined;
  return {
    kind: "quote",
    state: quoteState(quote),
    document: quoteRowDocument(quote, customer),
    validUntil: quote.validUntil,
    acceptedAt: quote.acceptedAt,
    declinedAt: quote.declinedAt,
    terms: signed?.terms ?? termsOfSale(),
    // A quote accepted before issue 40 has its hash in the acceptance only.
    signedSha256: signed?.pdfSha256 ?? quote.acceptance?.pdfSha256 ?? null,
    contactRequestId: quote.contactRequestId,
  };
}

/**
 * The PDF of the link's quote: once accepted, the bytes the buyer signed, never laid out again
 * (issue 40); before, as sent. A quote accepted before issue 40 kept no bytes: laid out, with
 * `Accepté le … par …`.
 */
export async function quotePagePdf(
  token: string,
): Promise<{ pdf: Buffer; fileName: string } | undefined> {
  const quote = await quoteByToken(token);
  if (!quote?.sentAt) return undefined;
  const signed = quote.acceptedAt ? await signedDocumentOf("quote", quote.id) : undefined;
  if (signed) return { pdf: signed.pdf, fileName: signed.fileName };
  const { pdf, document } = await buyerPdf(quote);
  return { pdf, fileName: document.fileName };
}
