// The personal data export: what is held about one address as the JSON document the person gets.
import { configurationLines } from "~/lib/offer-options";
import { vatNumberOf } from "~/lib/siren";
import { SIGNED_DOCUMENT_LABELS, signedKeptUntil } from "~/platform/signed-documents";
import { env } from "~/platform/env.server";
import { type SignedDocumentMetadata } from "~/platform/signed-documents.server";
import { type QuoteState } from "~/features/quotes/quote-sending.server";
import { type PersonalData, type QuoteRow } from "./personal-data.server";

/** A file a message carried, as the person is told about it: what it is, not its bytes. */
function exportedAttachment(file: {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}) {
  return { fileName: file.filename, type: file.contentType, bytes: file.size, sha256: file.sha256 };
}

/** A signed document as the person is told about it: what was recorded, and that its PDF is kept. */
function exportedSignedDocument(document: SignedDocumentMetadata, years: number) {
  const { acceptance } = document;
  return {
    kind: document.kind,
    label: SIGNED_DOCUMENT_LABELS[document.kind],
    reference: document.reference,
    signedAt: document.signedAt.toISOString(),
    keptUntil: signedKeptUntil(document.signedAt, years).toISOString(),
    seller: document.seller,
    termsOfSale: document.terms,
    addressedTo: document.party,
    acceptance: {
      name: acceptance.name,
      role: acceptance.role,
      at: acceptance.at,
      ipAddress: acceptance.ip,
      userAgent: acceptance.userAgent,
    },
    pdf: {
      fileName: document.fileName,
      bytes: document.pdfBytes,
      sha256: document.pdfSha256,
      available: true,
      note: "Le PDF signé est conservé tel quel ; il vous est remis sur simple demande.",
    },
  };
}

/** A quote as the person is told about it: what was sent, and their answer as recorded. */
function exportedQuote(quote: QuoteRow & { state: QuoteState }) {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  const { acceptance } = quote;
  return {
    number: quote.number,
    issuedAt: iso(quote.issuedAt),
    sentAt: iso(quote.sentAt),
    validUntil: iso(quote.validUntil),
    status: quote.state,
    // `Bon pour accord`: the acceptance record (a simple electronic signature) as stored.
    accepted:
      quote.acceptedAt && acceptance
        ? {
            at: iso(quote.acceptedAt),
            name: acceptance.name,
            role: acceptance.role,
            ipAddress: acceptance.ip,
            userAgent: acceptance.userAgent,
            pdfSha256: acceptance.pdfSha256,
          }
        : null,
    declined: quote.declinedAt ? { at: iso(quote.declinedAt), reason: quote.declineReason } : null,
  };
}

/**
 * The JSON file handed to the person (RGPD art. 15 and 20): what they sent and what was done with
 * it. The administrators' own addresses (authors of notes and status changes) are left out: they
 * are other people's data.
 */
export function personalDataDocument(
  email: string,
  data: PersonalData,
  controller: { name: string; address: string; email: string },
  now = new Date(),
) {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    format: "personal-data-export/1",
    exportedAt: now.toISOString(),
    controller,
    email,
    contactRequests: data.requests.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      phone: r.phone,
      company: r.company,
      siren: r.siren,
      vatNumber: r.siren ? vatNumberOf(r.siren) : null,
      message: r.message,
      offer: r.offerTitle ? { title: r.offerTitle, reference: r.offerReference } : null,
      configuration: r.configuration ? configurationLines(r.configuration) : null,
      status: r.status,
      suspectedSpam: r.suspectedSpam,
      // Issue 42: where the visit came from, and whether a `Ma demande` link opens the request.
      origin: {
        source: r.source,
        medium: r.medium,
        campaign: r.campaign,
        term: r.term,
        content: r.content,
        referrer: r.referrer,
      },
      followLink: r.followLink,
      createdAt: iso(r.createdAt),
      updatedAt: iso(r.updatedAt),
      notes: r.notes.map((n) => ({ body: n.body, createdAt: iso(n.createdAt) })),
      statusChanges: r.statusChanges.map((c) => ({
        from: c.fromStatus,
        to: c.toStatus,
        at: iso(c.createdAt),
      })),
      // When the request was given to someone of the sales team or taken back (who: their data).
      ownerChanges: r.ownerChanges.map((c) => ({
        assigned: c.toOwnerEmail !== null,
        at: iso(c.createdAt),
      })),
      mails: r.mails.map((m) => ({
        kind: m.kind,
        status: m.status,
        createdAt: iso(m.createdAt),
        sentAt: iso(m.sentAt),
      })),
      // Issue 29: each quote of the request (number, dates, status) and the answer recorded.
      quotes: r.quotes.map(exportedQuote),
      // Issue 40: the messages exchanged (from the team: who wrote them is their data).
      messages: r.messages.map((m) => ({
        from: m.direction === "outbound" ? "team" : "you",
        subject: m.subject,
        body: m.body,
        at: iso(m.createdAt),
        attachments: m.attachments.map(exportedAttachment),
      })),
      // Issue 41: the LOA file, and the documents sent for it, bytes included (base64).
      leaseFile: r.leaseFile
        ? {
            openedAt: iso(r.leaseFile.openedAt),
            completeAt: iso(r.leaseFile.completeAt),
            sentToFinancerAt: iso(r.leaseFile.financerSentAt),
            financerAnswer: r.leaseFile.financerAnswer,
            financerAnsweredOn: r.leaseFile.financerAnsweredOn,
            deliveredItems: r.leaseFile.deliveredItems,
            deliverySignedAt: iso(r.leaseFile.deliverySignedAt),
          }
        : null,
      leaseDocuments: r.leaseDocuments.map((d) => ({
        document: d.kindTitle,
        fileName: d.fileName,
        type: d.contentType,
        bytes: d.size,
        sha256: d.sha256,
        status: d.status,
        refusalReason: d.refusalReason,
        sentAt: iso(d.createdAt),
        contentBase64: d.data.toString("base64"),
      })),
    })),
    // Issue 40: what the person signed, kept for its legal period apart from the requests.
    signedDocuments: data.signedDocuments.map((d) =>
      exportedSignedDocument(d, env().SIGNED_QUOTE_RETENTION_YEARS),
    ),
    // Issue 40: messages they wrote to the sales mailbox that no request was found for.
    unattachedMessages: data.unattachedMessages.map((m) => ({
      subject: m.subject,
      body: m.body,
      at: iso(m.createdAt),
      attachments: m.attachments.map(exportedAttachment),
    })),
    // `Me prévenir` (issue 30): the offer, when asked, confirmed and mailed.
    availabilityAlerts: data.alerts.map((a) => ({
      email: a.email,
      offer: { title: a.offerTitle, reference: a.offerReference },
      createdAt: iso(a.createdAt),
      confirmedAt: iso(a.confirmedAt),
      notifiedAt: iso(a.notifiedAt),
    })),
    // Saved searches (issue 42): the listing's filters, when asked, confirmed, matched and mailed.
    savedSearches: data.savedSearches.map((s) => ({
      email: s.email,
      search: s.query,
      createdAt: iso(s.createdAt),
      confirmedAt: iso(s.confirmedAt),
      lastMatchAt: iso(s.lastMatchAt),
      lastMailedAt: iso(s.lastMailedAt),
    })),
  };
}
