import type { QuoteDocument } from "~/lib/quote";
import { buyerPdf, quoteByToken, quoteState, type QuoteState } from "./quote-sending.server";
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
    };

export async function quotePage(token: string): Promise<QuotePage> {
  const quote = await quoteByToken(token);
  if (!quote?.sentAt) return { kind: "missing" };
  const customer = quote.terms?.customer ?? { name: "", email: "" };
  return {
    kind: "quote",
    state: quoteState(quote),
    document: quoteRowDocument(quote, customer),
    validUntil: quote.validUntil,
    acceptedAt: quote.acceptedAt,
    declinedAt: quote.declinedAt,
  };
}

/** The PDF of the link's quote: as sent until answered, then with `Accepté le … par …`. */
export async function quotePagePdf(token: string) {
  const quote = await quoteByToken(token);
  if (!quote?.sentAt) return undefined;
  return buyerPdf(quote);
}
