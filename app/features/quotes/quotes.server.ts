import { desc, eq, sql } from "drizzle-orm";
import { parisYear } from "~/lib/dates";
import { configure } from "~/lib/offer-options";
import {
  quoteDocument,
  quoteNumber,
  type QuoteDocument,
  type QuoteSource,
  type Seller,
} from "~/lib/quote";
import {
  configurationColumns,
  configurationOf,
} from "~/features/desk/contact-configuration.server";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { findActiveOfferBySlug } from "~/features/offers/offer-listing.server";
import { appState, contactRequests, offers, quotes, type Quote } from "~/platform/schema.server";
import { signedDocumentOf } from "~/platform/signed-documents.server";
import { sellerIdentity, siteConfig } from "~/platform/site.server";

// Quotes (issue 21): the offer page's, for any configuration, and a request's, numbered and kept.

type QuoteOffer = Parameters<typeof configurationOf>[0] & {
  title: string;
  reference: string;
  loaPurchaseOption: string | null;
};

/** The quote's source for an offer as configured by `params` (the offer page's own reading). */
async function sourceOf(
  offer: QuoteOffer,
  params: URLSearchParams,
  database: Database,
): Promise<QuoteSource> {
  const configuration = (await configurationOf(offer, params, database)) ?? {
    // Neither options nor lease: the offer's own price and fee.
    ...configure(offer, [], []),
    query: "",
    lease: null,
  };
  return {
    offer: {
      title: offer.title,
      reference: offer.reference,
      type: offer.type,
      setupFee: offer.setupFee,
      loaMonths: offer.loaMonths,
      loaPurchaseOption: offer.loaPurchaseOption,
      pricedMonths: offer.pricedMonths,
    },
    configuration,
    vatRate: env().VAT_RATE,
  };
}

function documentOf(
  source: QuoteSource,
  issuedAt: Date,
  extra: Pick<
    Parameters<typeof quoteDocument>[1],
    "fileSlug" | "number" | "customer" | "validityDays" | "discounts" | "acceptance"
  >,
  seller: Seller = sellerIdentity(),
): QuoteDocument {
  return quoteDocument(source, {
    seller,
    pricing: siteConfig().pricing,
    leasingPartner: env().LEASING_PARTNER,
    issuedAt,
    ...extra,
  });
}

/** The public quote of an active offer as configured by `params`; null for an unknown slug. */
export async function offerQuote(
  slug: string,
  params: URLSearchParams,
  database: Database = db(),
  issuedAt = new Date(),
): Promise<QuoteDocument | null> {
  const offer = await findActiveOfferBySlug(slug, database);
  if (!offer) return null;
  const source = await sourceOf(offer, params, database);
  return documentOf(source, issuedAt, { fileSlug: offer.slug });
}

export type RequestQuote =
  | { kind: "quote"; document: QuoteDocument; number: string; issued: boolean }
  /** Accepted by the buyer: the bytes they signed, never laid out again (issue 40). */
  | { kind: "signed"; pdf: Buffer; fileName: string; number: string; sha256: string }
  | { kind: "missing" }
  /** A general request, or one whose offer is gone without a configuration to quote. */
  | { kind: "no-offer" };

/** The request as a quote needs it, locked until the transaction ends (download and sending). */
export async function lockedRequest(id: number, database: Database) {
  const [request] = await database
    .select({
      name: contactRequests.name,
      email: contactRequests.email,
      company: contactRequests.company,
      siren: contactRequests.siren,
      status: contactRequests.status,
      offerId: contactRequests.offerId,
      offerTitle: contactRequests.offerTitle,
      offerReference: contactRequests.offerReference,
      configuration: contactRequests.configuration,
    })
    .from(contactRequests)
    .where(eq(contactRequests.id, id))
    .for("update");
  return request;
}

/**
 * The request's last quote (a new one replaces it), locked until the transaction ends. Callers
 * lock the request first (lockedRequest), then its quote: the order every quote change takes
 * (sending, answering), so that two of them wait for each other instead of deadlocking.
 */
export async function latestQuote(id: number, database: Database): Promise<Quote | undefined> {
  const [quote] = await database
    .select()
    .from(quotes)
    .where(eq(quotes.contactRequestId, id))
    .orderBy(desc(quotes.id))
    .limit(1)
    .for("update");
  return quote;
}

/**
 * A request's quote, addressed to the person, with its number: given at the first download, with
 * what the quote says, and read back as it was afterwards. The request's row is locked first, so
 * that two downloads at once give one number (the unique constraints are the last guard); the
 * year's counter is a row of app_state incremented in the same transaction, so numbers follow
 * each other without gaps.
 */
export async function requestQuote(id: number, database: Database = db()): Promise<RequestQuote> {
  const kept = await database.transaction(async (tx) => {
    const request = await lockedRequest(id, tx);
    if (!request) return { kind: "missing" } as const;
    const customer = { name: request.name, email: request.email };
    const existing = await latestQuote(id, tx);
    if (existing) return { kind: "kept", quote: existing, customer, issued: false } as const;

    const source = await requestSource(request, tx);
    if (!source) return { kind: "no-offer" } as const;
    const issuedAt = new Date();
    const [quote] = await tx
      .insert(quotes)
      .values({
        contactRequestId: id,
        number: await nextQuoteNumber(tx, issuedAt),
        issuedAt,
        content: source,
      })
      .returning();
    return { kind: "kept", quote, customer, issued: true } as const;
  });
  if (kept.kind !== "kept") return kept;
  const { quote } = kept;
  const signed = quote.acceptedAt ? await signedDocumentOf("quote", quote.id, database) : undefined;
  if (signed) {
    return {
      kind: "signed",
      number: quote.number,
      pdf: signed.pdf,
      fileName: signed.fileName,
      sha256: signed.pdfSha256,
    };
  }
  return {
    kind: "quote",
    number: quote.number,
    issued: kept.issued,
    document: quoteRowDocument(quote, kept.customer),
  };
}

/**
 * The next number of the year of `issuedAt`: a row of app_state incremented in the caller's
 * transaction, so that numbers follow each other without gaps.
 */
export async function nextQuoteNumber(database: Database, issuedAt: Date): Promise<string> {
  const year = parisYear(issuedAt);
  const [counter] = await database
    .insert(appState)
    .values({ key: `quote_number_${year}`, value: "1" })
    .onConflictDoUpdate({
      target: appState.key,
      set: { value: sql`(${appState.value}::int + 1)::text`, updatedAt: sql`now()` },
    })
    .returning({ value: appState.value });
  return quoteNumber(year, Number(counter.value));
}

/**
 * The document of a kept quote: a sent one (issue 29) says what was sent (the buyer as then, the
 * discounts, the validity) and, once accepted, by whom; a quote only downloaded is addressed to
 * the request's person as now. The seller is the configured one unless given (a signature
 * records the one it rendered).
 */
export function quoteRowDocument(
  quote: Quote,
  customer: { name: string; email: string },
  options: { withAcceptance?: boolean; seller?: Seller } = {},
): QuoteDocument {
  const { terms } = quote;
  const acceptance =
    options.withAcceptance !== false && quote.acceptedAt && quote.acceptance
      ? { at: quote.acceptedAt, name: quote.acceptance.name, role: quote.acceptance.role }
      : null;
  return documentOf(
    quote.content,
    quote.sentAt ?? quote.issuedAt,
    {
      fileSlug: quote.number,
      number: quote.number,
      customer: terms?.customer ?? customer,
      validityDays: terms?.validityDays,
      discounts: terms?.discounts,
      acceptance,
    },
    options.seller,
  );
}

/**
 * What a request's quote says: its configuration snapshot (labels and amounts when it was sent)
 * with the offer's terms; a request sent without one is quoted at the offer's current price.
 */
export async function requestSource(
  request: {
    offerId: number | null;
    offerTitle: string | null;
    offerReference: string | null;
    configuration: QuoteSource["configuration"] | null;
  },
  database: Database,
): Promise<QuoteSource | null> {
  const [offer] =
    request.offerId === null
      ? []
      : await database
          .select({
            ...configurationColumns,
            title: offers.title,
            reference: offers.reference,
            loaPurchaseOption: offers.loaPurchaseOption,
          })
          .from(offers)
          .where(eq(offers.id, request.offerId));
  if (!request.configuration) {
    return offer ? sourceOf(offer, new URLSearchParams(), database) : null;
  }
  const { configuration } = request;
  return {
    offer: {
      // The offer as sent: its title and reference were copied with the request.
      title: request.offerTitle ?? offer?.title ?? "",
      reference: request.offerReference ?? offer?.reference ?? "",
      type: offer?.type ?? (configuration.lease ? "loa" : "dedicated"),
      setupFee: offer ? offer.setupFee : null,
      loaMonths: offer?.loaMonths ?? null,
      loaPurchaseOption: offer?.loaPurchaseOption ?? null,
      pricedMonths: offer?.pricedMonths ?? null,
    },
    configuration,
    vatRate: env().VAT_RATE,
  };
}
