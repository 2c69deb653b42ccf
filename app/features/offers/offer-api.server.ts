import { AVAILABLE_NOW, deliveryLabel, OFFER_FIELDS } from "~/lib/offer-fields";
import { leaseQuote, offeredDurations, type LeaseScale } from "~/lib/offer-price";
import { amount, loaTotal, toCents, ttcCents, type Pricing } from "~/lib/money";
import {
  SPEC_FIELDS,
  type ApiOffer,
  type ApiOfferDetail,
  type ApiOfferList,
} from "./offer-api-schema";
import { offerPrice } from "~/lib/offer-price";
import type { OfferFilters, OfferSort } from "~/lib/offer-filters";
import { db, type Database } from "~/platform/db.server";
import { readLeaseScale } from "./lease.server";
import {
  findActiveOfferBySlug,
  findActiveOffersByIds,
  LISTING_PAGE_SIZE,
  listActiveOffers,
  type OfferDetail,
} from "./offer-listing.server";

// The catalogue as JSON (issue 30): what a buyer compares, from the rows the pages read. The
// shapes are the zod schemas of offer-api-schema.ts, which the OpenAPI document describes.

export type ApiContext = { baseUrl: string; pricing: Pricing };

const euros = (cents: number) => cents / 100;

function withTtc(ht: string | null, pricing: Pricing) {
  if (ht === null) return { ht: null, ttc: null };
  const value = amount(ht, pricing);
  return { ht: euros(value.ht), ttc: euros(value.ttc) };
}

/** The offer's `specs`, as their schema derives them from the field table: decimals as numbers. */
function specsOf(offer: OfferDetail): ApiOffer["specs"] {
  return Object.fromEntries(
    SPEC_FIELDS.map((field) => {
      const value = offer[field];
      return [
        field,
        OFFER_FIELDS[field].kind === "decimal" && value !== null ? Number(value) : value,
      ];
    }),
  ) as ApiOffer["specs"];
}

/** The lease simulator's rents for every duration the offer allows and the scale prices. */
function leaseOf(offer: OfferDetail, scale: LeaseScale, pricing: Pricing): ApiOffer["lease"] {
  if (offer.type !== "loa" || offer.financedAmount === null) return null;
  const financed = toCents(offer.financedAmount);
  const durations = offeredDurations(offer.leaseDurations, scale).flatMap((months) => {
    const quote = leaseQuote(financed, months, scale);
    return quote
      ? [
          {
            months,
            monthlyHt: euros(quote.monthly),
            monthlyTtc: euros(ttcCents(quote.monthly, pricing.vatRate)),
            purchaseOptionHt: euros(quote.option),
            totalHt: euros(quote.total),
          },
        ]
      : [];
  });
  return durations.length ? { financedAmountHt: euros(financed), durations } : null;
}

/** One offer as the API shows it. */
export function apiOffer(offer: OfferDetail, scale: LeaseScale, context: ApiContext): ApiOffer {
  const { pricing } = context;
  const price = offerPrice(offer);
  const monthly = amount(price.monthly, pricing);
  const setup = withTtc(offer.setupFee, pricing);
  const lease = price.lease;
  const option = withTtc(lease?.purchaseOption ?? null, pricing);
  const total = lease ? loaTotal(price.monthly, lease.months, lease.purchaseOption, pricing) : null;
  return {
    slug: offer.slug,
    title: offer.title,
    reference: offer.reference,
    type: offer.type,
    url: `${context.baseUrl}/offers/${offer.slug}`,
    featured: offer.featured,
    price: {
      monthlyHt: euros(monthly.ht),
      monthlyTtc: euros(monthly.ttc),
      vatRate: pricing.vatRate,
      setupFeeHt: setup.ht,
      setupFeeTtc: setup.ttc,
    },
    engagement: offer.engagement,
    contractType: offer.contractType,
    loa:
      total && lease
        ? {
            months: lease.months,
            purchaseOptionHt: option.ht,
            purchaseOptionTtc: option.ttc,
            totalHt: euros(total.ht),
            totalTtc: euros(total.ttc),
          }
        : null,
    lease: leaseOf(offer, scale, pricing),
    specs: specsOf(offer),
    delivery: {
      state: offer.delivery,
      days: offer.deliveryDays,
      label: deliveryLabel(offer),
      availableNow: AVAILABLE_NOW.includes(offer.delivery),
    },
    datacenter:
      offer.datacenter && offer.datacenterName
        ? { code: offer.datacenter, name: offer.datacenterName }
        : null,
    options: (offer.options ?? []).map((group) =>
      group.kind === "choice"
        ? {
            kind: "choice" as const,
            label: group.label,
            choices: group.choices.map((c) => ({
              label: c.label,
              monthlyHt: euros(c.monthly),
              setupHt: euros(c.setup),
            })),
          }
        : {
            kind: "quantity" as const,
            label: group.label,
            min: group.min,
            max: group.max,
            monthlyHt: euros(group.monthly),
            setupHt: euros(group.setup),
          },
    ),
    updatedAt: offer.updatedAt.toISOString(),
  };
}

/**
 * GET /api/offers: one page of the listing, the same offers in the same order as the page at the
 * same address: the catalogue's index chooses them (listActiveOffers, the page's own engine), then
 * their rows are read with every column. A page past the end is empty.
 */
export async function listApiOffers(
  state: { filters: OfferFilters; page: number; sort: OfferSort },
  context: ApiContext,
  database: Database = db(),
): Promise<ApiOfferList> {
  const { filters, page, sort } = state;
  const listed = await listActiveOffers(filters, page, LISTING_PAGE_SIZE, database, sort);
  const ids = listed.offers.map((offer) => offer.id);
  const [rows, scale] =
    ids.length === 0
      ? [[], undefined]
      : await Promise.all([findActiveOffersByIds(ids, database), readLeaseScale(database)]);
  return {
    offers: scale ? rows.map((row) => apiOffer(row, scale, context)) : [],
    total: listed.total,
    page,
    pageCount: Math.max(1, Math.ceil(listed.total / LISTING_PAGE_SIZE)),
    pageSize: LISTING_PAGE_SIZE,
  };
}

/** GET /api/offers/{slug}: an active offer with its description, or undefined. */
export async function findApiOffer(
  slug: string,
  context: ApiContext,
  database: Database = db(),
): Promise<ApiOfferDetail | undefined> {
  const offer = await findActiveOfferBySlug(slug, database);
  if (!offer) return undefined;
  const scale = await readLeaseScale(database);
  return { ...apiOffer(offer, scale, context), description: offer.description };
}
