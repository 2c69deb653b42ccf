import { scaled } from "~/lib/offer-price";
import { centsText, toCents } from "~/lib/money";
import type { QuoteSource } from "~/lib/quote";
import { discountedConfiguration } from "~/lib/quote";
import { slugify } from "~/lib/slug";

// The LOA file's summary for the financer (issue 41), in its terms: who (SIREN, company, the
// manager who signed), what (the equipment) and the lease (amount financed, duration, coefficient,
// rent, purchase option). Every figure is the accepted quote's as stored, never today's catalogue.

/** The lease's figures in cents (null: the quote does not say it). */
export type LeaseFigures = {
  monthlyRentHt: number;
  durationMonths: number | null;
  coefficient: string | null;
  amountFinancedHt: number | null;
  purchaseOptionHt: number | null;
  totalCostHt: number | null;
  setupFeeHt: number;
};

/**
 * The figures of an accepted quote: the rent is the monthly total the buyer signed (discounts
 * applied); the coefficient is the scale's when the quote was priced. The amount financed is the
 * offer's financed amount when the rent is its rent at that coefficient, else the amount the rent
 * finances at it (options or a discount changed the rent): rent = amount financed × coefficient.
 */
export function leaseFigures(content: QuoteSource, discounts: readonly number[]): LeaseFigures {
  const configuration = discountedConfiguration(content.configuration, discounts);
  const rent = configuration.monthly;
  const lease = content.configuration.lease ?? null;
  const durationMonths = lease?.months ?? content.offer.loaMonths ?? null;
  const purchaseOptionHt = lease
    ? lease.option
    : content.offer.loaPurchaseOption === null
      ? null
      : toCents(content.offer.loaPurchaseOption);
  const coefficient = lease?.coefficient ?? null;
  const units = coefficient === null ? undefined : scaled(coefficient, 5);
  let amountFinancedHt: number | null = null;
  if (units) {
    const stored = lease?.financed;
    const storedRent =
      stored === undefined ? undefined : Math.floor((stored * units + 50_000) / 100_000);
    amountFinancedHt =
      stored !== undefined && storedRent === rent ? stored : Math.round((rent * 100_000) / units);
  }
  return {
    monthlyRentHt: rent,
    durationMonths,
    coefficient,
    amountFinancedHt,
    purchaseOptionHt,
    totalCostHt: durationMonths === null ? null : rent * durationMonths + (purchaseOptionHt ?? 0),
    setupFeeHt: configuration.setup,
  };
}

/** The equipment as the quote lists it: the offer, then each configured line. */
export function equipmentOf(content: QuoteSource): { label: string; value: string }[] {
  return [
    { label: content.offer.title, value: `Référence ${content.offer.reference}` },
    ...content.configuration.lines.map((line) => ({ label: line.group, value: line.value })),
  ];
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "image/jpeg": "jpg",
  "image/png": "png",
};

/**
 * A document's name in the archive: `pieces/<kind>--<name>.<ext>`, ASCII, the extension from the
 * type read from its bytes (never the sender's), made unique with `-2`, `-3`… in `taken`.
 */
export function archiveName(
  document: { kindTitle: string; fileName: string; contentType: string },
  taken: Set<string>,
): string {
  const extension = EXTENSIONS[document.contentType] ?? "bin";
  const stem = document.fileName.replace(/\.[A-Za-z0-9]{1,5}$/, "");
  const kind = slugify(document.kindTitle).slice(0, 50).replace(/-+$/, "") || "piece";
  const file = slugify(stem).slice(0, 50).replace(/-+$/, "") || "document";
  const base = `pieces/${kind}--${file}`;
  let name = `${base}.${extension}`;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}.${extension}`;
  taken.add(name);
  return name;
}

export type SummaryDocument = {
  kind: string;
  file: string;
  originalName: string;
  contentType: string;
  size: number;
  sha256: string;
  receivedAt: string;
};

export type FinancerSummary = {
  format: "dossier-loa/1";
  reference: string;
  preparedAt: string;
  financer: string;
  seller: { legalName: string; siren: string };
  customer: {
    siren: string | null;
    company: string | null;
    email: string;
    manager: { name: string; role: string };
  };
  quote: { number: string; acceptedAt: string; file: string; sha256: string };
  equipment: { label: string; value: string }[];
  lease: {
    currency: "EUR";
    amountFinancedHt: string | null;
    durationMonths: number | null;
    coefficient: string | null;
    monthlyRentHt: string;
    purchaseOptionHt: string | null;
    totalCostHt: string | null;
    setupFeeHt: string;
  };
  documents: SummaryDocument[];
};

const euros = (cents: number | null) => (cents === null ? null : centsText(cents));

export function financerSummary(input: {
  reference: string;
  preparedAt: Date;
  financer: string;
  seller: { legalName: string; siren: string };
  customer: { siren: string | null; company: string | null; email: string };
  manager: { name: string; role: string };
  quote: { number: string; acceptedAt: Date; file: string; sha256: string };
  content: QuoteSource;
  discounts: readonly number[];
  documents: SummaryDocument[];
}): FinancerSummary {
  const figures = leaseFigures(input.content, input.discounts);
  return {
    format: "dossier-loa/1",
    reference: input.reference,
    preparedAt: input.preparedAt.toISOString(),
    financer: input.financer,
    seller: input.seller,
    customer: { ...input.customer, manager: input.manager },
    quote: { ...input.quote, acceptedAt: input.quote.acceptedAt.toISOString() },
    equipment: equipmentOf(input.content),
    lease: {
      currency: "EUR",
      amountFinancedHt: euros(figures.amountFinancedHt),
      durationMonths: figures.durationMonths,
      coefficient: figures.coefficient,
      monthlyRentHt: centsText(figures.monthlyRentHt),
      purchaseOptionHt: euros(figures.purchaseOptionHt),
      totalCostHt: euros(figures.totalCostHt),
      setupFeeHt: centsText(figures.setupFeeHt),
    },
    documents: input.documents,
  };
}
