import type { QuoteSource } from "./quote";

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
