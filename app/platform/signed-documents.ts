import type { Seller } from "~/lib/quote";

// What a person signs (issue 40): an accepted quote now, a delivery report (`PV de livraison`)
// later, kept once as the exact PDF bytes with what they were signed under.

/** The kinds of signed documents: one value each in the database's enum. */
export const SIGNED_DOCUMENT_KINDS = ["quote", "delivery_report"] as const;
export type SignedDocumentKind = (typeof SIGNED_DOCUMENT_KINDS)[number];

export const SIGNED_DOCUMENT_LABELS: Record<SignedDocumentKind, string> = {
  quote: "Devis signé (bon pour accord)",
  delivery_report: "PV de livraison signé",
};

/** The seller as configured when the document was signed (the PDF shows the same). */
export type SignedSeller = Seller & { legalForm: string };

/** The terms of sale the signer agreed to: the site has no text of them, only their address. */
export type SignedTerms = { url: string; version: string | null };

/** Who signed, when and from where (a simple electronic signature, eIDAS). */
export type SignedAcceptance = {
  name: string;
  role: string;
  at: string;
  ip: string;
  userAgent: string;
};

/** The party the document is addressed to, as the document names them. */
export type SignedParty = {
  name: string;
  email: string;
  company?: string | null;
  siren?: string | null;
};

/** The default legal period of commercial documents (Code de commerce, art. L123-22). */
export const SIGNED_QUOTE_RETENTION_YEARS_DEFAULT = 10;

/** The day a signed document's retention ends: its signature plus the years kept. */
export function signedKeptUntil(signedAt: Date, years: number): Date {
  const until = new Date(signedAt);
  until.setUTCFullYear(until.getUTCFullYear() + years);
  return until;
}
