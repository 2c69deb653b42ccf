import { Search, X } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input, NativeSelect } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { OFFER_TYPE_LABELS, OFFER_TYPES } from "~/lib/domain";
import type { OfferFilters } from "~/lib/offer-filters";

/**
 * The listing's filters: a plain GET form rendered on the server. Without JavaScript the visitor
 * submits it; with JavaScript, app/client/listing.js applies it as the visitor types (the
 * `data-live-filters` form) and hides the submit button (`data-nojs-only`).
 */
export function OfferFiltersForm({
  filters,
  filtered,
}: {
  filters: OfferFilters;
  filtered: boolean;
}) {
  const engagement = filters.commitment === undefined ? "all" : filters.commitment ? "yes" : "no";
  return (
    <Card>
      <CardContent className="p-6">
        <form
          method="get"
          action="/offers"
          role="search"
          aria-label="Filtrer les offres"
          data-live-filters=""
        >
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
            <div className="space-y-2 lg:col-span-1">
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
                  maxLength={100}
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
            <div className="space-y-2">
              <Label htmlFor="filter-min">Prix min (€)</Label>
              <Input
                id="filter-min"
                name="min"
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                placeholder="0"
                defaultValue={filters.minPrice?.toString() ?? ""}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="filter-max">Prix max (€)</Label>
              <Input
                id="filter-max"
                name="max"
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                placeholder="1000"
                defaultValue={filters.maxPrice?.toString() ?? ""}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="filter-engagement">Engagement</Label>
              <NativeSelect id="filter-engagement" name="engagement" defaultValue={engagement}>
                <option value="all">Tous</option>
                <option value="yes">Avec engagement</option>
                <option value="no">Sans engagement</option>
              </NativeSelect>
            </div>
          </div>
          <div className="mt-4 flex flex-wrap items-center gap-3" data-filter-actions="">
            <Button type="submit" size="sm" data-nojs-only="">
              <Search aria-hidden="true" /> Appliquer les filtres
            </Button>
            {filtered ? (
              <Button asChild variant="outline" size="sm">
                <a href="/offers">
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
