import { Search, X } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input, NativeSelect } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { OFFER_TYPE_LABELS, OFFER_TYPES } from "~/lib/domain";
import * as dom from "~/lib/dom-hooks";
import {
  LISTING_PATH,
  MAX_SEARCH_LENGTH,
  OFFER_SORT_LABELS,
  OFFER_SORTS,
  offerListingPath,
  type OfferFilters,
  type OfferSort,
} from "~/lib/offer-filters";

/**
 * The listing's filters: a plain GET form rendered on the server. Without JavaScript the visitor
 * submits it; with JavaScript, app/client/listing.ts applies it as the visitor types (the
 * `data-live-filters` form) and hides the submit button (`data-nojs-only`).
 */
function NumberFilter({
  name,
  label,
  placeholder,
  value,
}: {
  name: string;
  label: string;
  placeholder: string;
  value: number | undefined;
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={`filter-${name}`}>{label}</Label>
      <Input
        id={`filter-${name}`}
        name={name}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        placeholder={placeholder}
        defaultValue={value?.toString() ?? ""}
      />
    </div>
  );
}

export function OfferFiltersForm({
  filters,
  filtered,
  sort,
}: {
  filters: OfferFilters;
  filtered: boolean;
  sort: OfferSort;
}) {
  const engagement = filters.commitment === undefined ? "all" : filters.commitment ? "yes" : "no";
  return (
    <Card>
      <CardContent className="p-6">
        <form
          method="get"
          action={LISTING_PATH}
          role="search"
          aria-label="Filtrer les offres"
          {...dom.hook(dom.LIVE_FILTERS)}
        >
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <div className="space-y-2">
              <Label htmlFor="filter-q">Rechercher</Label>
              <div className="relative">
                <Search
                  className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
                  aria-hidden="true"
                />
                <Input
                  id="filter-q"
                  name="q"
                  type="search"
                  placeholder="CPU, RAM, référence..."
                  maxLength={MAX_SEARCH_LENGTH}
                  className="pl-9"
                  defaultValue={filters.searchTerm ?? ""}
                />
              </div>
            </div>
            <div className="space-y-2">
              <Label htmlFor="filter-type">Type</Label>
              <NativeSelect id="filter-type" name="type" defaultValue={filters.type ?? "all"}>
                <option value="all">Tous</option>
                {OFFER_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {OFFER_TYPE_LABELS[type]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            {/* Prices are HT, the figure the catalogue is priced in (docs/decisions/016). */}
            <NumberFilter
              name="min"
              label="Prix min (€ HT)"
              placeholder="0"
              value={filters.minPrice}
            />
            <NumberFilter
              name="max"
              label="Prix max (€ HT)"
              placeholder="1000"
              value={filters.maxPrice}
            />
            <NumberFilter
              name="ram_min"
              label="RAM min (Go)"
              placeholder="64"
              value={filters.ramMin}
            />
            <NumberFilter
              name="cores_min"
              label="Cœurs min"
              placeholder="8"
              value={filters.coresMin}
            />
            <div className="space-y-2">
              <Label htmlFor="filter-engagement">Engagement</Label>
              <NativeSelect id="filter-engagement" name="engagement" defaultValue={engagement}>
                <option value="all">Tous</option>
                <option value="yes">Avec engagement</option>
                <option value="no">Sans engagement</option>
              </NativeSelect>
            </div>
            <div className="space-y-2">
              <Label htmlFor="filter-sort">Trier par</Label>
              <NativeSelect id="filter-sort" name="sort" defaultValue={sort}>
                {OFFER_SORTS.map((value) => (
                  <option key={value} value={value}>
                    {OFFER_SORT_LABELS[value]}
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>
          <div className="mt-4 flex flex-wrap items-center gap-3" {...dom.hook(dom.FILTER_ACTIONS)}>
            <Button type="submit" size="sm" {...dom.hook(dom.NOJS_ONLY)}>
              <Search aria-hidden="true" /> Appliquer les filtres
            </Button>
            {filtered ? (
              <Button asChild variant="outline" size="sm">
                {/* Clearing the filters keeps the chosen order. */}
                <a href={offerListingPath({}, 1, sort)}>
                  <X aria-hidden="true" /> Effacer les filtres
                </a>
              </Button>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
