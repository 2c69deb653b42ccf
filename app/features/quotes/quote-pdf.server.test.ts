import { describe, expect, it } from "vitest";
import type { QuoteDocument } from "~/lib/quote";
import { quotePdf } from "./quote-pdf.server";

const quote: QuoteDocument = {
  title: "Devis indicatif",
  number: null,
  fileName: "devis-epyc-64-2026-11-24.pdf",
  issued: "24 novembre 2026",
  validUntil: "24 décembre 2026",
  seller: { name: "ServeurPro SAS", lines: ["1 rue de l'Exemple, 75000 Paris"] },
  customer: null,
  offer: "EPYC Performance 64 — Référence EPYC-64",
  rows: [{ label: "Offre de base", detail: "EPYC", monthly: "129,00 €", setup: "49,00 €" }],
  totals: [{ label: "Total HT /mois", value: "129,00 €", strong: true }],
  lease: null,
  notes: ["Devis indicatif, sans engagement."],
  accepted: null,
};

describe("quotePdf", () => {
  it("gives the same bytes for the same document and creation date (issue 28: one ETag)", async () => {
    const createdAt = new Date("2026-11-24T00:00:00Z");
    const [first, second] = [await quotePdf(quote, createdAt), await quotePdf(quote, createdAt)];
    expect(first.subarray(0, 5).toString()).toBe("%PDF-");
    expect(first.equals(second)).toBe(true);
    const later = await quotePdf(quote, new Date("2026-11-25T00:00:00Z"));
    expect(later.equals(first)).toBe(false);
  });
});
