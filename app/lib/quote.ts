import { formatDateTime, formatParisDay, parisDay } from "./dates";
import { amount, centsText, formatCents, perMonth, type Pricing } from "./money";
import type { ConfigurationSnapshot } from "./offer-options";
import {
  configuredTermsSource,
  leaseMention,
  offerTerms,
  type OfferTermsSource,
} from "./offer-price";
import { companyLine } from "./siren";

// The quote (devis) of a configured offer (issue 21): what the PDF says, as data. The amounts come
// from the configuration (offer-options.ts) and the offer's terms (offer-price.ts), as on the
// offer page; app/features/quotes/quote-pdf.server.ts only lays this out.

export const QUOTE_VALIDITY_DAYS = 30;

/** The public quote of the offer page's configuration: `/offers/epyc/devis.pdf?o0=1`. */
export function quoteHref(slug: string, configuration: string): string {
  return `/offers/${slug}/devis.pdf${configuration ? `?${configuration}` : ""}`;
}

/** A request's quote on its admin page. */
export const requestQuoteHref = (id: number) => `/admin/contacts/${id}/devis.pdf`;

/** What a quote is made of; a request's numbered quote keeps it as it was at its first download. */
export type QuoteSource = {
  offer: Pick<
    OfferTermsSource,
    "type" | "setupFee" | "loaMonths" | "loaPurchaseOption" | "pricedMonths"
  > & {
    title: string;
    reference: string;
  };
  configuration: Omit<ConfigurationSnapshot, "query"> & { query?: string };
  vatRate: number;
};

/** The seller as the configuration states it (SITE_LEGAL_NAME, SITE_ADDRESS, SITE_SIREN…). */
export type Seller = {
  legalName: string;
  address: string;
  siren: string;
  rcs: string;
  vatNumber: string;
  email: string;
  phone: string;
};

/** The seller's block at the top of a document we issue (a quote, a delivery report). */
export function sellerHeading(seller: Seller): { name: string; lines: string[] } {
  return {
    name: seller.legalName,
    lines: [
      seller.address,
      `SIREN ${seller.siren} — RCS ${seller.rcs}`,
      `N° TVA intracommunautaire : ${seller.vatNumber}`,
      `${seller.email} — ${seller.phone}`,
    ],
  };
}

export type QuoteRow = { label: string; detail: string; monthly: string; setup: string };
export type QuoteFigure = { label: string; value: string; strong?: boolean };

export type QuoteDocument = {
  title: string;
  number: string | null;
  fileName: string;
  issued: string;
  validUntil: string;
  seller: { name: string; lines: string[] };
  customer: string[] | null;
  offer: string;
  rows: QuoteRow[];
  totals: QuoteFigure[];
  lease: QuoteFigure[] | null;
  notes: string[];
  /** `Accepté le … par …` once the buyer accepted it online (issue 29). */
  accepted: string | null;
};

/** A request's quote number: `DEV-2026-00042`, the year of issue (Paris) and its rank in it. */
export function quoteNumber(year: string | number, sequence: number): string {
  return `DEV-${year}-${String(sequence).padStart(5, "0")}`;
}

const money = (cents: number) => formatCents(cents);

/**
 * The document of a quote: one row for the base offer, one per chosen option, the monthly total
 * HT, its VAT and TTC, the setup fee likewise, and the lease terms of an LOA.
 */
export function quoteDocument(
  source: QuoteSource,
  context: {
    seller: Seller;
    issuedAt: Date;
    pricing: Pricing;
    leasingPartner: string;
    number?: string | null;
    customer?: {
      name: string;
      company?: string | null;
      siren?: string | null;
      email: string;
    } | null;
    fileSlug: string;
    /** A sent quote (issue 29): its validity, its discounts per row, its acceptance. */
    validityDays?: number;
    discounts?: readonly number[];
    acceptance?: { at: Date; name: string; role: string } | null;
  },
): QuoteDocument {
  const discounts = context.discounts ?? [];
  const configuration = discountedConfiguration(source.configuration, discounts);
  const discounted = (i: number, detail: string) =>
    discounts[i] ? `${detail} — ${discountLabel(discounts[i])}` : detail;
  const validityDays = context.validityDays ?? QUOTE_VALIDITY_DAYS;
  const pricing = { ...context.pricing, vatRate: source.vatRate };
  const terms = offerTerms(
    configuredTermsSource(source.offer, configuration, configuration.lease),
    pricing,
  );
  const optionsMonthly = configuration.lines.reduce((sum, l) => sum + l.monthly, 0);
  const optionsSetup = configuration.lines.reduce((sum, l) => sum + l.setup, 0);
  const isLease = source.offer.type === "loa";
  const rows: QuoteRow[] = [
    {
      label: isLease ? "Loyer de base" : "Offre de base",
      detail: discounted(0, `${source.offer.title} (${source.offer.reference})`),
      monthly: money(configuration.monthly - optionsMonthly),
      setup: money(configuration.setup - optionsSetup),
    },
    ...configuration.lines.map((line, i) => ({
      label: line.group,
      detail: discounted(i + 1, line.value),
      monthly: line.monthly ? `+${money(line.monthly)}` : "Inclus",
      setup: line.setup ? `+${money(line.setup)}` : "—",
    })),
  ];
  const monthly = amount(centsText(configuration.monthly), pricing);
  const setup = amount(centsText(configuration.setup), pricing);
  const vat = `${String(pricing.vatRate).replace(".", ",")} %`;
  const totals: QuoteFigure[] = [
    { label: perMonth("Total HT"), value: money(monthly.ht) },
    { label: `TVA ${vat}`, value: money(monthly.ttc - monthly.ht) },
    { label: perMonth("Total TTC"), value: money(monthly.ttc), strong: true },
  ];
  if (terms.setupFeeValue !== null) {
    totals.push(
      setup.ht === 0
        ? { label: "Mise en service", value: "Offerte" }
        : { label: "Mise en service HT", value: money(setup.ht) },
    );
    if (setup.ht !== 0) {
      totals.push(
        { label: `TVA ${vat} (mise en service)`, value: money(setup.ttc - setup.ht) },
        { label: "Mise en service TTC", value: money(setup.ttc), strong: true },
      );
    }
  }
  const lease = terms.loa
    ? [
        { label: "Durée", value: terms.loa.duration },
        { label: perMonth("Loyer"), value: `${terms.monthly} (soit ${terms.monthlyOther})` },
        ...(terms.loa.purchaseOption
          ? [{ label: "Option d'achat", value: terms.loa.purchaseOption }]
          : []),
        { label: "Coût total", value: terms.loa.total, strong: true },
      ]
    : null;
  const { seller } = context;
  const buyer = context.customer;
  const company = buyer ? companyLine(buyer.company ?? null, buyer.siren ?? null) : null;
  const customer = buyer
    ? [buyer.name, ...(company ? company.split(" — ") : []), buyer.email]
    : null;
  const { acceptance } = context;
  const number = context.number ?? null;
  // A quote sent to be accepted (its terms chosen by the salesperson) binds once accepted: it is
  // not called indicative, which would leave the buyer wondering what they sign (issue 29).
  const sent = context.validityDays !== undefined;
  const until = `valable ${validityDays} jours, jusqu'au ${formatParisDay(context.issuedAt, validityDays)}`;
  return {
    title: sent ? "Devis" : "Devis indicatif",
    number,
    fileName: `${number ?? `devis-${context.fileSlug}-${parisDay(context.issuedAt)}`}.pdf`,
    issued: formatParisDay(context.issuedAt),
    validUntil: formatParisDay(context.issuedAt, validityDays),
    seller: sellerHeading(seller),
    customer,
    offer: `${source.offer.title} — Référence ${source.offer.reference}`,
    rows,
    totals,
    lease,
    notes: [
      sent
        ? `Devis ${until}. Son acceptation (bon pour accord) vaut commande aux conditions générales de vente.`
        : `Devis indicatif ${until}, établi d'après les prix du catalogue à sa date d'émission ; il ne vaut pas commande.`,
      `Montants en euros ; TVA au taux de ${vat}.`,
      ...(lease
        ? [`${leaseMention(context.leasingPartner)}${sent ? "" : " Simulation indicative."}`]
        : []),
    ],
    accepted: acceptance
      ? `Accepté le ${formatDateTime(acceptance.at)} par ${acceptance.name} (${acceptance.role}) — bon pour accord en ligne, signature électronique simple.`
      : null,
  };
}

// A quote sent from a request's page (issue 29): its terms as the salesperson set them, and the
// buyer's answer. Pure: shared by the server, the views and the PDF.

export const DEFAULT_QUOTE_VALIDITY_DAYS = 30;
export const QUOTE_VALIDITY_MAX_DAYS = 365;
/** The owner's reminder goes this long before an unanswered quote expires. */
export const QUOTE_REMINDER_DAYS = 3;

/** What a sent quote says besides its offer and configuration. */
export type SentQuoteTerms = {
  customer: { name: string; email: string; company: string | null; siren: string | null };
  /** Percent off the monthly amount, per row of the quote (0: the base offer, then each option). */
  discounts: number[];
  validityDays: number;
};

/** `Bon pour accord`, as recorded: who, and the SHA-256 of the PDF they accepted. */
export type QuoteAcceptance = {
  name: string;
  role: string;
  ip: string;
  userAgent: string;
  pdfSha256: string;
};

/** The rows a discount can apply to, as the send form lists them. */
export function quoteRowLabels(source: QuoteSource): string[] {
  return [
    `${source.offer.title} (${source.offer.reference})`,
    ...source.configuration.lines.map((line) => `${line.group} : ${line.value}`),
  ];
}

const off = (cents: number, percent: number) => Math.round((cents * (100 - percent)) / 100);

/**
 * The configuration with the discounts applied to its monthly amounts (the setup fees are not
 * discounted): each option line, the base (the monthly total less the options), and the total.
 */
export function discountedConfiguration<C extends QuoteSource["configuration"]>(
  configuration: C,
  discounts: readonly number[],
): C {
  if (!discounts.some((d) => d > 0)) return configuration;
  const optionsMonthly = configuration.lines.reduce((sum, l) => sum + l.monthly, 0);
  const base = off(configuration.monthly - optionsMonthly, discounts[0] ?? 0);
  const lines = configuration.lines.map((line, i) => ({
    ...line,
    monthly: off(line.monthly, discounts[i + 1] ?? 0),
  }));
  const monthly = base + lines.reduce((sum, l) => sum + l.monthly, 0);
  const lease = configuration.lease
    ? {
        ...configuration.lease,
        total: monthly * configuration.lease.months + configuration.lease.option,
      }
    : configuration.lease;
  return { ...configuration, lines, monthly, lease };
}

/** `10 %`, `12,5 %`: a discount as a row of the quote shows it. */
export function discountLabel(percent: number): string {
  return `remise ${String(percent).replace(".", ",")} %`;
}

/** Where a sent quote stands. */
export type QuoteState = "draft" | "open" | "accepted" | "declined" | "replaced" | "expired";

/** A quote's state as the administration says it. */
export const QUOTE_STATE_LABELS: Record<QuoteState, string> = {
  draft: "téléchargé, pas encore envoyé",
  open: "envoyé, en attente de réponse",
  accepted: "accepté",
  declined: "refusé",
  replaced: "remplacé",
  expired: "expiré sans réponse",
};
