// The delivery report (`PV de livraison`, issue 41): after the financer's agreement the team enters
// the equipment delivered and its serial numbers; the buyer signs the report from the quote's
// link, as simply as the quote. Its PDF is laid out once, kept with its SHA-256 like a signed
// quote (signed_documents, kind delivery_report), and the request becomes `Livré`.
import { and, desc, eq } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import {
  contactRequests,
  leaseFiles,
  mailOutbox,
  signedDocuments,
  type DeliveredItem,
  type Quote,
} from "~/platform/schema.server";
import { recordSignedDocument, signedDocumentOf } from "~/platform/signed-documents.server";
import { MAIL_KINDS, notifyMailWorkers } from "~/features/mail/mail-outbox.server";
import { sellerHeading } from "~/lib/quote";
import { signingSeller, termsOfSale } from "~/features/quotes/quote-answer.server";
import { moveStatus, quoteByToken } from "~/features/quotes/quote-sending.server";
import { enqueueWebhookEvent } from "~/features/webhooks/webhooks.server";
import { deliveryReportPdf } from "./lease-file-pdf.server";
import { readLeaseFinancer } from "./lease-settings.server";

/** What the buyer's page shows of the delivery: the lines to sign, or the report signed. */
export type BuyerDelivery = {
  items: DeliveredItem[];
  /** When the lines were entered: a report signed against other lines is refused. */
  version: string;
  signed: { at: Date; name: string; role: string; sha256: string } | null;
};

type FileState = {
  status: string;
  email: string;
  items: DeliveredItem[] | null;
  enteredAt: Date | null;
  signedAt: Date | null;
};

async function fileState(
  contactRequestId: number,
  database: Database,
  lock = false,
): Promise<FileState | undefined> {
  const query = database
    .select({
      status: contactRequests.status,
      email: contactRequests.email,
      items: leaseFiles.deliveredItems,
      enteredAt: leaseFiles.deliveryEnteredAt,
      signedAt: leaseFiles.deliverySignedAt,
    })
    .from(contactRequests)
    .innerJoin(leaseFiles, eq(leaseFiles.contactRequestId, contactRequests.id))
    .where(eq(contactRequests.id, contactRequestId));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/** The request's signed delivery report as the pages say it (never its bytes), or null. */
export async function signedDeliveryReport(contactRequestId: number, database: Database = db()) {
  const [report] = await database
    .select({
      id: signedDocuments.id,
      signedAt: signedDocuments.signedAt,
      acceptance: signedDocuments.acceptance,
      sha256: signedDocuments.pdfSha256,
    })
    .from(signedDocuments)
    .where(
      and(
        eq(signedDocuments.kind, "delivery_report"),
        eq(signedDocuments.contactRequestId, contactRequestId),
      ),
    )
    .orderBy(desc(signedDocuments.id))
    .limit(1);
  if (!report) return null;
  const { id, signedAt, acceptance, sha256 } = report;
  return { id, signedAt, name: acceptance.name, role: acceptance.role, sha256 };
}

/** The delivery as its buyer sees it; null before the team entered the equipment. */
export async function buyerDelivery(
  contactRequestId: number,
  database: Database = db(),
): Promise<BuyerDelivery | null> {
  const state = await fileState(contactRequestId, database);
  if (!state?.items?.length || !state.enteredAt) return null;
  const signed = state.signedAt ? await signedDeliveryReport(contactRequestId, database) : null;
  if (!signed && state.status !== "financer_approved") return null;
  return {
    items: state.items,
    version: state.enteredAt.toISOString(),
    signed: signed
      ? { at: signed.signedAt, name: signed.name, role: signed.role, sha256: signed.sha256 }
      : null,
  };
}

export type DeliverySignOutcome =
  | { kind: "signed"; reference: string }
  | { kind: "missing" }
  | { kind: "refused"; reason: "signed" | "not-ready" | "changed" };

/** Why the report cannot be signed now, or undefined when it can. */
function refusal(state: FileState, version: string) {
  if (state.signedAt) return "signed" as const;
  if (state.status !== "financer_approved" || !state.items?.length || !state.enteredAt) {
    return "not-ready" as const;
  }
  if (state.enteredAt.toISOString() !== version) return "changed" as const;
  return undefined;
}

/** The report's file name and its number in signed_documents: one per quote. */
const reportReference = (quote: Pick<Quote, "number">) => `PV-${quote.number}`;

/**
 * `Signer le PV de livraison`, once: refused before any layout when already signed, not ready or
 * entered again since the page was read; else laid out before the transaction (PGlite has one
 * connection), then, the request locked and checked again, kept with the seller, the terms and
 * who signed, from where; `Livré`, its history line, the owner's mail and the webhooks follow.
 */
export async function signDeliveryReport(
  token: string,
  signer: { name: string; role: string; version: string },
  client: { ip: string; userAgent: string },
  database: Database = db(),
): Promise<DeliverySignOutcome> {
  const quote = await quoteByToken(token, database);
  if (!quote?.acceptedAt) return { kind: "missing" };
  const seen = await fileState(quote.contactRequestId, database);
  if (!seen) return { kind: "missing" };
  const refused = refusal(seen, signer.version);
  if (refused) return { kind: "refused", reason: refused };
  const at = now();
  const seller = signingSeller();
  const customer = quote.terms?.customer ?? {
    name: "",
    email: seen.email,
    company: null,
    siren: null,
  };
  const pdf = await deliveryReportPdf({
    seller: sellerHeading(seller),
    customer: { company: customer.company, siren: customer.siren, email: customer.email },
    quoteNumber: quote.number,
    financer: (await readLeaseFinancer(database)).name,
    items: seen.items ?? [],
    signer: { name: signer.name, role: signer.role },
    signedAt: at,
  });
  return database.transaction(async (tx): Promise<DeliverySignOutcome> => {
    const state = await fileState(quote.contactRequestId, tx, true);
    if (!state) return { kind: "missing" };
    const late = refusal(state, signer.version);
    if (late) return { kind: "refused", reason: late };
    const reference = reportReference(quote);
    await recordSignedDocument(
      {
        kind: "delivery_report",
        reference,
        sourceId: quote.id,
        contactRequestId: quote.contactRequestId,
        signedAt: at,
        fileName: `pv-livraison-${quote.number}.pdf`,
        pdf,
        seller,
        terms: termsOfSale(),
        party: customer,
        acceptance: {
          name: signer.name,
          role: signer.role,
          at: at.toISOString(),
          ip: client.ip,
          userAgent: client.userAgent.slice(0, 500),
        },
      },
      tx,
    );
    await tx
      .update(leaseFiles)
      .set({ deliverySignedAt: at })
      .where(eq(leaseFiles.contactRequestId, quote.contactRequestId));
    const buyer = { id: null, email: state.email };
    await moveStatus(tx, quote.contactRequestId, "financer_approved", "delivered", buyer);
    await tx
      .insert(mailOutbox)
      .values({ contactRequestId: quote.contactRequestId, kind: MAIL_KINDS.deliveryReportSigned });
    await notifyMailWorkers(tx);
    await enqueueWebhookEvent("request.updated", quote.contactRequestId, tx, {
      changes: ["status"],
    });
    return { kind: "signed", reference };
  });
}

/** The signed report's PDF by the quote's link: the bytes kept, never laid out again. */
export async function deliveryReportByToken(
  token: string,
  database: Database = db(),
): Promise<{ pdf: Buffer; fileName: string } | undefined> {
  const quote = await quoteByToken(token, database);
  if (!quote?.acceptedAt) return undefined;
  const signed = await signedDocumentOf("delivery_report", quote.id, database);
  return signed && { pdf: signed.pdf, fileName: signed.fileName };
}
