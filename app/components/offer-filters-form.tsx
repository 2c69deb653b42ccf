import { Search, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input, NativeSelect } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { OFFER_TYPE_LABELS, OFFER_TYPES } from "~/lib/domain";
import { offerFiltersToSearch, type OfferFilters } from "~/lib/offer-filters";
import { useHydrated } from "~/lib/use-hydrated";

type FormState = { q: string; type: string; min: string; max: string; engagement: string };

function toFormState(filters: OfferFilters): FormState {
  return {
    q: filters.searchTerm ?? "",
    type: filters.type ?? "all",
    min: filters.minPrice?.toString() ?? "",
    max: filters.maxPrice?.toString() ?? "",
    engagement: filters.commitment === undefined ? "all" : filters.commitment ? "yes" : "no",
  };
}

/** The same rules as the server (offer-filters.ts) without shipping its validation library. */
function toSearch(state: FormState): string {
  const int = (v: string) => {
    const n = Number.parseInt(v, 10);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  return offerFiltersToSearch({
    searchTerm: state.q.trim() || undefined,
    type: OFFER_TYPES.find((t) => t === state.type),
    minPrice: int(state.min),
    maxPrice: int(state.max),
    commitment: state.engagement === "yes" ? true : state.engagement === "no" ? false : undefined,
  });
}

const DEBOUNCE_MS = 300;

export function OfferFiltersForm({
  filters,
  filtered,
}: {
  filters: OfferFilters;
  filtered: boolean;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [state, setState] = useState(() => toFormState(filters));
  const lastSearch = useRef(offerFiltersToSearch(filters));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // The URL changed from elsewhere (clear link, back button): show what it says.
  const urlSearch = offerFiltersToSearch(filters);
  useEffect(() => {
    if (urlSearch !== lastSearch.current) {
      lastSearch.current = urlSearch;
      setState(toFormState(filters));
    }
  }, [urlSearch, filters]);

  useEffect(() => () => clearTimeout(timer.current), []);

  function update(next: FormState, delay: number) {
    setState(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const search = toSearch(next);
      if (search === lastSearch.current) return;
      lastSearch.current = search;
      void navigate(`/offers${search}`, { replace: true, preventScrollReset: true });
    }, delay);
  }

  const onText = (field: "q" | "min" | "max") => (event: React.ChangeEvent<HTMLInputElement>) =>
    update({ ...state, [field]: event.target.value }, DEBOUNCE_MS);
  const onSelect =
    (field: "type" | "engagement") => (event: React.ChangeEvent<HTMLSelectElement>) =>
      update({ ...state, [field]: event.target.value }, 0);

  return (
    <Card>
      <CardContent className="p-6">
        <Form method="get" action="/offers" role="search" aria-label="Filtrer les offres">
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
                  value={state.q}
                  onChange={onText("q")}
                />
              </div>
            </div>
            <div className="space-y-2">
              <Label htmlFor="filter-type">Type</Label>
              <NativeSelect
                id="filter-type"
                name="type"
                value={state.type}
                onChange={onSelect("type")}
              >
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
                value={state.min}
                onChange={onText("min")}
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
                value={state.max}
                onChange={onText("max")}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="filter-engagement">Engagement</Label>
              <NativeSelect
                id="filter-engagement"
                name="engagement"
                value={state.engagement}
                onChange={onSelect("engagement")}
              >
                <option value="all">Tous</option>
                <option value="yes">Avec engagement</option>
                <option value="no">Sans engagement</option>
              </NativeSelect>
            </div>
          </div>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            {/* Filters apply as you type once JavaScript runs; without it, this button submits. */}
            {hydrated ? null : (
              <Button type="submit" size="sm">
                <Search aria-hidden="true" /> Appliquer les filtres
              </Button>
            )}
            {filtered ? (
              <Button asChild variant="outline" size="sm">
                <Link to="/offers" preventScrollReset>
                  <X aria-hidden="true" /> Effacer les filtres
                </Link>
              </Button>
            ) : null}
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
