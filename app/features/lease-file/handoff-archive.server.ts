import { and, asc, eq, sql } from "drizzle-orm";
import { zipSync, type Zippable } from "fflate";
import { contactReference } from "~/platform/contact-reference";
import { createSemaphore } from "~/lib/semaphore";
import { now } from "~/platform/clock.server";
import { db, type Database } from "~/platform/db.server";
import {
  contactRequests,
  leaseDocumentKinds,
  leaseDocuments,
  leaseFiles,
} from "~/platform/schema.server";
import { sha256Hex, signedDocumentOf } from "~/platform/signed-documents.server";
import { sellerIdentity } from "~/platform/site.server";
import { buyerPdf, quoteById } from "~/features/quotes/quote-sending.server";
import { archiveName, financerSummary, type FinancerSummary } from "./financer-summary";
import { summaryPdf } from "./lease-file-pdf.server";
import { readLeaseFinancer } from "./lease-settings.server";

// The archive handed to the financer (issue 41): one zip with the signed quote's exact bytes,
// every document received (not refused) and the summary as synthese.pdf and synthese.json. Built
// when asked (the download, the mail as it leaves), never stored: once the file is sent, its
// date is the sending's, so every build of it gives the same bytes.

/** Statuses whose file has every document: its archive can be built. */
const READY = ["file_complete", "file_sent", "financer_approved", "financer_refused", "delivered"];

export type HandOffArchive = {
  fileName: string;
  zip: Uint8Array;
  sha256: string;
  summary: FinancerSummary;
};

export type ArchiveOutcome =
  { kind: "built"; archive: HandOffArchive } | { kind: "missing" } | { kind: "incomplete" };

/** A build holds every document in memory: two at once per instance, a few more waiting. */
const builds = createSemaphore({ concurrency: 2, maxQueued: 8 });

/** The archive of a request's LOA file; QueueFullError when too many are being built. */
export function buildHandOffArchive(
  contactRequestId: number,
  database: Database = db(),
): Promise<ArchiveOutcome> {
  return builds.run(() => build(contactRequestId, database));
}

async function build(contactRequestId: number, database: Database): Promise<ArchiveOutcome> {
  const [file] = await database
    .select({
      quoteId: leaseFiles.quoteId,
      sentAt: leaseFiles.financerSentAt,
      status: contactRequests.status,
      createdAt: contactRequests.createdAt,
      email: contactRequests.email,
      company: contactRequests.company,
      siren: contactRequests.siren,
    })
    .from(leaseFiles)
    .innerJoin(contactRequests, eq(contactRequests.id, leaseFiles.contactRequestId))
    .where(eq(leaseFiles.contactRequestId, contactRequestId));
  const quote = file?.quoteId ? await quoteById(file.quoteId, database) : undefined;
  if (!file || !quote?.acceptedAt || !quote.acceptance) return { kind: "missing" };
  if (!READY.includes(file.status)) return { kind: "incomplete" };
  const [signed, documents, financer] = await Promise.all([
    signedDocumentOf("quote", quote.id, database),
    receivedDocuments(contactRequestId, database),
    readLeaseFinancer(database),
  ]);
  // A quote accepted before issue 40 kept no bytes: laid out again, with its acceptance.
  const quotePdf = signed?.pdf ?? (await buyerPdf(quote)).pdf;
  const quoteFile = `devis-signe-${quote.number}.pdf`;
  const preparedAt = file.sentAt ?? now();
  const taken = new Set<string>();
  const named = documents.map((document) => ({
    ...document,
    name: archiveName(document, taken),
  }));
  const customer = quote.terms?.customer;
  const seller = sellerIdentity();
  const reference = contactReference(contactRequestId, file.createdAt);
  const summary = financerSummary({
    reference,
    preparedAt,
    financer: financer.name,
    seller: { legalName: seller.legalName, siren: seller.siren },
    customer: {
      siren: customer?.siren ?? file.siren,
      company: customer?.company ?? file.company,
      email: customer?.email ?? file.email,
    },
    manager: { name: quote.acceptance.name, role: quote.acceptance.role },
    quote: {
      number: quote.number,
      acceptedAt: quote.acceptedAt,
      file: quoteFile,
      sha256: signed?.pdfSha256 ?? sha256Hex(quotePdf),
    },
    content: quote.content,
    discounts: quote.terms?.discounts ?? [],
    documents: named.map((document) => ({
      kind: document.kindTitle,
      file: document.name,
      originalName: document.fileName,
      contentType: document.contentType,
      size: document.size,
      sha256: document.sha256,
      receivedAt: document.createdAt.toISOString(),
    })),
  });
  const pdf = await summaryPdf(summary);
  // PDF and images are compressed already: stored as they are, byte for byte.
  const stored = { level: 0 } as const;
  const entries: Zippable = {
    [quoteFile]: [new Uint8Array(quotePdf), stored],
    "synthese.pdf": [new Uint8Array(pdf), stored],
    "synthese.json": [new TextEncoder().encode(`${JSON.stringify(summary, null, 2)}\n`), {}],
  };
  for (const document of named) entries[document.name] = [new Uint8Array(document.data), stored];
  const zip = zipSync(entries, { mtime: preparedAt });
  return {
    kind: "built",
    archive: { fileName: `dossier-loa-${reference}.zip`, zip, sha256: sha256Hex(zip), summary },
  };
}

/** The file's received documents, bytes included, in the list's order (removed kinds last). */
function receivedDocuments(contactRequestId: number, database: Database) {
  return database
    .select({
      kindTitle: leaseDocuments.kindTitle,
      fileName: leaseDocuments.fileName,
      contentType: leaseDocuments.contentType,
      size: leaseDocuments.size,
      sha256: leaseDocuments.sha256,
      data: leaseDocuments.data,
      createdAt: leaseDocuments.createdAt,
    })
    .from(leaseDocuments)
    .leftJoin(leaseDocumentKinds, eq(leaseDocumentKinds.id, leaseDocuments.kindId))
    .where(
      and(
        eq(leaseDocuments.contactRequestId, contactRequestId),
        eq(leaseDocuments.status, "received"),
      ),
    )
    .orderBy(
      sql`${leaseDocumentKinds.position} asc nulls last`,
      asc(leaseDocuments.kindTitle),
      asc(leaseDocuments.createdAt),
      asc(leaseDocuments.id),
    );
}
