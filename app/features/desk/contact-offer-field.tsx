import searchScriptUrl from "~/client/contact-offer-search.ts?script";
import { Button } from "~/components/ui/button";
import { FieldError } from "~/components/ui/field";
import { Input, NativeSelect } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import * as dom from "~/lib/dom-hooks";
import { monthlyLabel, type Pricing } from "~/lib/money";
import { GENERAL_REQUEST_LABEL, offerChoiceLabel } from "./offer-choice";
import { OFFER_SEARCH, offerSearchSummary } from "~/lib/offer-search";
import { useRootData } from "~/hooks/use-root-data";
import type { ContactOfferField as Field } from "./contact-offers.server";
import type { OfferChoice } from "~/features/offers/offer-choices.server";

// The contact form's offer field (docs/decisions/019): the spec's selector while the catalogue is
// small; beyond CONTACT_OFFER_SELECT_MAX active offers, a search. Without JavaScript the search is
// a GET of this page (`?offer_q=`) listing matches as radio buttons; with it,
// app/client/contact-offer-search.ts turns the input into a combobox that asks /contact/offers.

/** The GET form of the search without JavaScript; it must sit outside the contact form. */
export const OFFER_SEARCH_FORM_ID = "offer-search-form";

function SelectedOffer(props: { title?: string; reference?: string; price?: string }) {
  return (
    <div
      className="rounded-md border bg-muted/50 p-4 text-sm"
      aria-live="polite"
      {...dom.hook(dom.SELECTED_OFFER)}
    >
      <p className="font-semibold">Offre sélectionnée :</p>
      <p {...dom.hook(dom.SELECTED_TITLE)}>{props.title}</p>
      <p className="text-muted-foreground">
        Réf. <span {...dom.hook(dom.SELECTED_REFERENCE)}>{props.reference}</span>
      </p>
      <p className="font-semibold text-primary" {...dom.hook(dom.SELECTED_PRICE)}>
        {props.price}
      </p>
    </div>
  );
}

/** An offer choice's text, ready to show: the scripts copy it, never parse or format it. */
function choiceData(choice: OfferChoice, pricing: Pricing) {
  return {
    ...dom.hook(dom.OFFER_TITLE, choice.title),
    ...dom.hook(dom.OFFER_REFERENCE, choice.reference),
    ...dom.hook(dom.OFFER_PRICE, monthlyLabel(choice.price, pricing)),
  };
}

/** Shown by the server for a selected offer; the scripts keep it in step, from the template. */
function SelectedOfferBox({ selected }: { selected?: OfferChoice }) {
  const { pricing } = useRootData().site;
  return (
    <>
      {selected ? (
        <SelectedOffer
          title={selected.title}
          reference={selected.reference}
          price={monthlyLabel(selected.price, pricing)}
        />
      ) : null}
      <template {...dom.hook(dom.SELECTED_OFFER_TEMPLATE)}>
        <SelectedOffer />
      </template>
    </>
  );
}

export function ContactOfferField(props: {
  field: Field;
  /** The offer id the form carries ('' for 'Demande générale'). */
  value: string;
  /** The offer of a refused post, which a search page may not list. */
  postedChoice?: OfferChoice;
  error?: string;
}) {
  const { field, value, error } = props;
  const { pricing } = useRootData().site;
  if (field.mode === "select") {
    const selected = field.choices.find((c) => String(c.id) === value);
    return (
      <div className="space-y-2">
        <Label htmlFor="offer">Offre concernée (optionnel)</Label>
        <NativeSelect
          id="offer"
          name="offer"
          defaultValue={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "offer-error" : undefined}
        >
          <option value="">{GENERAL_REQUEST_LABEL}</option>
          {field.choices.map((choice) => (
            <option key={choice.id} value={choice.id} {...choiceData(choice, pricing)}>
              {offerChoiceLabel(choice)}
            </option>
          ))}
        </NativeSelect>
        <FieldError id="offer-error" message={error} />
        <SelectedOfferBox selected={selected} />
      </div>
    );
  }
  return <OfferSearchField {...props} field={field} />;
}

function OfferSearchField({
  field,
  value,
  postedChoice,
  error,
}: {
  field: Extract<Field, { mode: "search" }>;
  value: string;
  postedChoice?: OfferChoice;
  error?: string;
}) {
  const { pricing } = useRootData().site;
  const known = [field.preselected, postedChoice, ...(field.results ?? [])];
  const selected = known.find((c) => c && String(c.id) === value);
  // The selected offer stays a choice even when the search does not list it.
  const choices = [...(selected ? [selected] : []), ...(field.results ?? [])].filter(
    (c, i, all) => all.findIndex((o) => o.id === c.id) === i,
  );
  const describedBy = ["offer-search-hint", error ? "offer-error" : ""].filter(Boolean).join(" ");
  return (
    <div
      className="space-y-2"
      {...dom.hook(dom.OFFER_SEARCH_ROOT)}
      {...dom.hook(dom.OFFER_SEARCH_ENDPOINT, "/contact/offers")}
    >
      <Label htmlFor="offer-search">Offre concernée (optionnel)</Label>
      <p id="offer-search-hint" className="text-sm text-muted-foreground">
        Recherchez une offre par son titre ou sa référence, ou laissez « Demande générale ».
      </p>
      <div className="relative flex gap-2">
        <Input
          id="offer-search"
          type="search"
          name="offer_q"
          form={OFFER_SEARCH_FORM_ID}
          defaultValue={field.query}
          maxLength={OFFER_SEARCH.maxLength}
          placeholder="Titre ou référence, par ex. EPYC"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
        <Button
          type="submit"
          variant="outline"
          form={OFFER_SEARCH_FORM_ID}
          {...dom.hook(dom.NOJS_ONLY)}
        >
          Rechercher
        </Button>
        <ul
          id={dom.OFFER_SEARCH_LISTBOX_ID}
          role="listbox"
          aria-label="Offres"
          hidden
          className="absolute inset-x-0 top-full z-40 mt-1 max-h-72 overflow-y-auto rounded-md border bg-background p-1 text-sm shadow-lg"
        />
        <template {...dom.hook(dom.OFFER_OPTION_TEMPLATE)}>
          <li
            role="option"
            aria-selected="false"
            className="cursor-pointer rounded-sm px-3 py-2 aria-selected:bg-accent aria-selected:text-accent-foreground"
          />
        </template>
      </div>
      {/* Announces the number of matches to screen readers (the combobox fills it). */}
      <p role="status" className="sr-only" {...dom.hook(dom.OFFER_SEARCH_STATUS)} />
      <fieldset className="space-y-2" {...dom.hook(dom.OFFER_CHOICES)} {...dom.hook(dom.NOJS_ONLY)}>
        <legend className="sr-only">Choisissez l'offre</legend>
        {field.notice ? <p className="text-sm text-destructive">{field.notice}</p> : null}
        {field.results ? (
          <p className="text-sm text-muted-foreground">
            {offerSearchSummary(field.results.length, field.more)}
          </p>
        ) : null}
        <p className="text-sm text-muted-foreground">
          La recherche recharge la page : choisissez l'offre avant de remplir les autres champs.
        </p>
        <div className="space-y-1">
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="offer" value="" defaultChecked={!selected} />
            {GENERAL_REQUEST_LABEL}
          </label>
          {choices.map((choice) => (
            <label key={choice.id} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="offer"
                value={choice.id}
                defaultChecked={choice.id === selected?.id}
                {...choiceData(choice, pricing)}
              />
              {offerChoiceLabel(choice)}
            </label>
          ))}
        </div>
      </fieldset>
      <FieldError id="offer-error" message={error} />
      <SelectedOfferBox selected={selected} />
      <script src={searchScriptUrl} defer />
    </div>
  );
}

/**
 * The search's own GET form, rendered after the contact form (forms cannot nest). It carries the
 * selected offer along, so that a search keeps it among the choices.
 */
export function ContactOfferSearchForm({ field, value }: { field: Field; value: string }) {
  return field.mode === "search" ? (
    <form id={OFFER_SEARCH_FORM_ID} method="get" action="/contact">
      {value ? <input type="hidden" name="offer" value={value} /> : null}
    </form>
  ) : null;
}
