import { eq } from "drizzle-orm";
import type { SignedSeller, SignedTerms } from "~/platform/signed-documents";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { contactRequests, leaseFiles, quotes, type Quote } from "~/platform/schema.server";
import { now } from "~/platform/clock.server";
import { recordSignedDocument } from "~/platform/signed-documents.server";
import { sellerIdentity, siteConfig } from "~/platform/site.server";
import { MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import { enqueueWebhookEvent } from "~/features/webhooks/webhooks.server";
import {
  buyerPdf,
  enqueueQuoteMail,
  moveStatus,
  quoteByToken,
  quoteState,
  webhookQuote,
  type QuoteState,
} from "./quote-sending.server";

// The buyer's answer to a sent quote (issue 29), and what an acceptance keeps (issue 40): the PDF
// they accepted, as bytes, in signed_documents, with the seller and terms it was signed under.

export type QuoteAnswer =
  { kind: "accept"; name: string; role: string } | { kind: "decline"; reason: string | null };

export type QuoteAnswerOutcome =
  | { kind: "accepted" | "declined"; number: string }
  | { kind: "missing" }
  | { kind: "refused"; state: Exclude<QuoteState, "open" | "draft"> };

/** The seller as configured now, with its legal form: what a signature records. */
export function signingSeller(): SignedSeller {
  return { ...sellerIdentity(), legalForm: env().SITE_LEGAL_FORM };
}

/** The terms of sale a buyer accepts with a quote: the site links them, by address and version. */
export function termsOfSale(): SignedTerms {
  return { url: siteConfig().termsUrl, version: env().SITE_TERMS_VERSION ?? null };
}

/**
 * The buyer's answer, once. The request is locked, then the quote (the order sendQuote takes: a
 * new quote sent at the same moment waits, then is refused, or replaces this one first and the
 * answer is refused); an answered, replaced or expired quote refuses. `Bon pour accord` records
 * who, when, from where, and keeps the PDF they accepted: laid out once, right before the
 * transaction, from the quote's row and the seller as configured (the same bytes as the page's
 * PDF), written with its SHA-256, the seller and the terms to signed_documents; the request's
 * status, history, the owner's mail and the webhooks follow in the same transaction.
 */
export async function answerQuote(
  token: string,
  answer: QuoteAnswer,
  client: { ip: string; userAgent: string },
  database: Database = db(),
): Promise<QuoteAnswerOutcome> {
  const found = await quoteByToken(token, database);
  if (!found) return { kind: "missing" };
  // Refused before any layout: repeated posts to an answered quote render no PDF (checked again,
  // locked, in the transaction).
  const seen = quoteState(found);
  if (seen !== "open") return { kind: "refused", state: seen === "draft" ? "expired" : seen };
  // Laid out before the transaction (PGlite has one connection). A sent quote's row never changes
  // what it says (only a draft is rewritten), so the locked row below says the same.
  const seller = signingSeller();
  const accepted =
    answer.kind === "accept"
      ? { ...answer, ...(await buyerPdf(found, { withAcceptance: false, seller })) }
      : undefined;
  return database.transaction(async (tx) => {
    const [request] = await tx
      .select({ status: contactRequests.status, email: contactRequests.email })
      .from(contactRequests)
      .where(eq(contactRequests.id, found.contactRequestId))
      .for("update");
    const [quote] = await tx.select().from(quotes).where(eq(quotes.id, found.id)).for("update");
    if (!request || !quote || quote.tokenHash !== found.tokenHash) return { kind: "missing" };
    const state = quoteState(quote);
    if (state !== "open") return { kind: "refused", state: state === "draft" ? "expired" : state };
    const at = now();
    const userAgent = client.userAgent.slice(0, 500);
    let answered: Quote;
    if (accepted) {
      const { name, role } = accepted;
      const signed = await recordSignedDocument(
        {
          kind: "quote",
          reference: quote.number,
          sourceId: quote.id,
          contactRequestId: quote.contactRequestId,
          signedAt: at,
          fileName: accepted.document.fileName,
          pdf: accepted.pdf,
          seller,
          terms: termsOfSale(),
          party: quote.terms?.customer ?? { name: "", email: request.email },
          acceptance: { name, role, at: at.toISOString(), ip: client.ip, userAgent },
        },
        tx,
      );
      [answered] = await tx
        .update(quotes)
        .set({
          acceptedAt: at,
          acceptance: { name, role, ip: client.ip, userAgent, pdfSha256: signed.pdfSha256 },
        })
        .where(eq(quotes.id, quote.id))
        .returning();
    } else {
      const reason = answer.kind === "decline" ? answer.reason : null;
      [answered] = await tx
        .update(quotes)
        .set({ declinedAt: at, declineReason: reason })
        .where(eq(quotes.id, quote.id))
        .returning();
    }
    const status = answer.kind === "accept" ? "accepted" : "declined";
    const buyer = { id: null, email: request.email };
    await moveStatus(tx, quote.contactRequestId, request.status, status, buyer);
    // An LOA goes on with the financer's file (issue 41): opened now, incomplete until the buyer
    // sends the documents from this same page.
    if (status === "accepted" && quote.content.offer.type === "loa") {
      await tx
        .insert(leaseFiles)
        .values({ contactRequestId: quote.contactRequestId, quoteId: quote.id, openedAt: at })
        .onConflictDoUpdate({
          target: leaseFiles.contactRequestId,
          set: { quoteId: quote.id, openedAt: at, completeAt: null },
        });
      await moveStatus(tx, quote.contactRequestId, "accepted", "file_incomplete", buyer);
    }
    await enqueueQuoteMail(tx, answered, MAIL_KINDS.quoteAnswered);
    await enqueueWebhookEvent(
      answer.kind === "accept" ? "quote.accepted" : "quote.declined",
      quote.contactRequestId,
      tx,
      { quote: webhookQuote(answered) },
    );
    return { kind: status, number: quote.number };
  });
}
