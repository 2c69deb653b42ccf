import type { Facet } from "../../app/lib/offer-facets";
import type { OfferFilters } from "../../app/lib/offer-filters";

/** The filters with one facet set to a choice as the URL writes it ('loa', 'yes', '1'), or cleared. */
export function withChoice(
  filters: OfferFilters,
  facet: Facet,
  value: string | undefined,
): OfferFilters {
  const next: OfferFilters = { ...filters };
  if (facet === "type") next.type = value as OfferFilters["type"];
  if (facet === "engagement") next.commitment = value === undefined ? undefined : value === "yes";
  if (facet === "location") next.location = value;
  if (facet === "available") next.availableNow = value === "1" ? true : undefined;
  return next;
}
