import { ChevronDown, Search, SlidersHorizontal, X } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input, NativeSelect } from "~/components/ui/input";
import { SearchInput } from "~/components/ui/search-input";
import { useVisitSource } from "~/hooks/use-visit-source";
import { SOURCE_PARAM, withSource } from "~/lib/attribution";
import * as dom from "~/lib/dom-hooks";
import { OFFER_TYPE_LABELS, OFFER_TYPES } from "~/lib/domain";
import { choiceLabel, selectedChoice, type Facet, type FacetCounts } from "~/lib/offer-facets";
import {
  hasActiveFilters,
  LISTING_PATH,
  MAX_SEARCH_LENGTH,
  OFFER_SORT_LABELS,
  OFFER_SORTS,
  offerListingPath,
  MINIMUM_FILTERS,
  REFERENCE_FILTERS,
  type MinimumFilterField,
  type ReferenceChoices,
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
    <Field id={`filter-${name}`} label={label}>
      <Input
        name={name}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        placeholder={placeholder}
        defaultValue={value?.toString() ?? ""}
      />
    </Field>
  );
}

// Prices are HT, the figure the catalogue is priced in (docs/decisions/016).
const NUMBER_FILTERS: readonly {
  name: string;
  field: "minPrice" | "maxPrice" | MinimumFilterField;
  label: string;
  placeholder: string;
}[] = [
  { name: "min", field: "minPrice", label: "Prix min (€ HT)", placeholder: "0" },
  { name: "max", field: "maxPrice", label: "Prix max (€ HT)", placeholder: "1000" },
  ...MINIMUM_FILTERS.map(({ param, field, label, placeholder }) => ({
    name: param,
    field,
    label,
    placeholder,
  })),
];

/**
 * A select's options with their counts ('Paris (4)'): a choice that would list no offer is
 * disabled, unless it is the one chosen. `data-filter-choice` lets listing.ts copy the counts of a
 * new result in (the form itself is never swapped: the visitor may be typing in it).
 */
function FacetOptions({
  facet,
  all,
  options,
  filters,
  counts,
}: {
  facet: Facet;
  /** The value of 'Tous' ('all' or ''). */
  all: string;
  options: readonly { value: string; label: string }[];
  filters: OfferFilters;
  counts: FacetCounts | undefined;
}) {
  const chosen = selectedChoice(filters, facet);
  const facetCounts = counts?.facets[facet];
  return (
    <>
      <option value={all} {...dom.hook(dom.FILTER_CHOICE, `${facet}=`)}>
        {choiceLabel("Tous", facetCounts?.all)}
      </option>
      {options.map(({ value, label }) => {
        const count = facetCounts && (facetCounts.by[value] ?? 0);
        return (
          <option
            key={value}
            value={value}
            disabled={count === 0 && value !== chosen}
            {...dom.hook(dom.FILTER_CHOICE, `${facet}=${value}`)}
          >
            {choiceLabel(label, count)}
          </option>
        );
      })}
    </>
  );
}

/** A facet's select: the choice made, the choices and their counts. */
function FacetSelect({
  facet,
  label,
  all,
  options,
  filters,
  counts,
}: {
  /** Also the select's name. */
  facet: Facet;
  label: string;
  /** The value of 'Tous' ('all' or ''). */
  all: string;
  options: readonly { value: string; label: string }[];
  filters: OfferFilters;
  counts: FacetCounts | undefined;
}) {
  const chosen = selectedChoice(filters, facet);
  return (
    <Field id={`filter-${facet}`} label={label}>
      <NativeSelect name={facet} defaultValue={chosen ?? all}>
        <FacetOptions facet={facet} all={all} options={options} filters={filters} counts={counts} />
      </NativeSelect>
    </Field>
  );
}

const TYPE_CHOICES = OFFER_TYPES.map((value) => ({ value, label: OFFER_TYPE_LABELS[value] }));
const ENGAGEMENT_CHOICES = [
  { value: "yes", label: "Avec engagement" },
  { value: "no", label: "Sans engagement" },
];

export function OfferFiltersForm({
  filters,
  filtered,
  sort,
  choices,
  counts,
}: {
  filters: OfferFilters;
  filtered: boolean;
  sort: OfferSort;
  /** The choices of each reference filter (the datacenters…), by field. */
  choices: ReferenceChoices;
  /** How many offers each choice gives with the other filters (offer-facets.ts). */
  counts?: FacetCounts;
}) {
  const availableCount = counts && (counts.facets.available.by["1"] ?? 0);
  // The visit's origin goes with the filters (issue 42): a campaign's buyer may filter first.
  const src = useVisitSource();
  const facetProps = { filters, counts };
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
          {src ? <input type="hidden" name={SOURCE_PARAM} value={src} /> : null}
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field id="filter-q" label="Rechercher" className="lg:col-span-3">
              <SearchInput
                name="q"
                placeholder="CPU, RAM, référence..."
                maxLength={MAX_SEARCH_LENGTH}
                defaultValue={filters.searchTerm ?? ""}
              />
            </Field>
            <Field id="filter-sort" label="Trier par">
              <NativeSelect name="sort" defaultValue={sort}>
                {OFFER_SORTS.map((value) => (
                  <option key={value} value={value}>
                    {OFFER_SORT_LABELS[value]}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          {/* On a phone the other filters fold under 'Filtres' (open when one is set), the actions
              beside it while folded, so that the first offers show on the first screen; from md up
              they always show (::details-content; a browser without it keeps the fold). */}
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <details
              className="group open:w-full md:w-full md:details-content:[content-visibility:visible]"
              open={hasActiveFilters({ ...filters, searchTerm: undefined }) || undefined}
            >
              <summary className="inline-flex min-h-10 cursor-pointer items-center gap-2 rounded-md border px-4 text-sm font-medium hover:bg-accent md:supports-[selector(::details-content)]:hidden">
                <SlidersHorizontal aria-hidden="true" className="size-4" />
                Filtres
                <ChevronDown
                  aria-hidden="true"
                  className="size-4 transition-transform group-open:rotate-180"
                />
              </summary>
              <div className="mt-4 grid gap-4 sm:grid-cols-2 md:mt-0 lg:grid-cols-4">
                <FacetSelect
                  facet="type"
                  label="Type"
                  all="all"
                  options={TYPE_CHOICES}
                  {...facetProps}
                />
                {NUMBER_FILTERS.map((filter) => (
                  <NumberFilter
                    key={filter.name}
                    name={filter.name}
                    label={filter.label}
                    placeholder={filter.placeholder}
                    value={filters[filter.field]}
                  />
                ))}
                <FacetSelect
                  facet="engagement"
                  label="Engagement"
                  all="all"
                  options={ENGAGEMENT_CHOICES}
                  {...facetProps}
                />
                {REFERENCE_FILTERS.map(({ param, field, label }) => (
                  <FacetSelect
                    key={param}
                    facet={param}
                    label={label}
                    all=""
                    options={choices[field] ?? []}
                    {...facetProps}
                  />
                ))}
                <div className="flex items-end pb-2">
                  <label className="flex cursor-pointer items-center gap-2 text-sm">
                    <Checkbox
                      id="filter-available"
                      name="available"
                      value="1"
                      defaultChecked={filters.availableNow === true}
                      disabled={availableCount === 0 && !filters.availableNow}
                      {...dom.hook(dom.FILTER_CHOICE, "available=1")}
                    />
                    <span {...dom.hook(dom.FILTER_CHOICE_LABEL, "available=1")}>
                      {choiceLabel("Livrable immédiatement", availableCount)}
                    </span>
                  </label>
                </div>
              </div>
            </details>
            <div className="flex flex-wrap items-center gap-3" {...dom.hook(dom.FILTER_ACTIONS)}>
              <Button type="submit" size="sm" {...dom.hook(dom.NOJS_ONLY)}>
                <Search aria-hidden="true" /> Appliquer les filtres
              </Button>
              {filtered ? (
                <Button asChild variant="outline" size="sm">
                  {/* Clearing the filters keeps the chosen order. */}
                  <a href={withSource(offerListingPath({}, 1, sort), src)}>
                    <X aria-hidden="true" /> Effacer les filtres
                  </a>
                </Button>
              ) : null}
            </div>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
