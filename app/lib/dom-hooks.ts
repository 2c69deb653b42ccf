// The attributes and ids that server-rendered markup and the public pages' scripts (app/client)
// share: one name each, so that renaming one breaks the type check, not the page. app.css styles a
// few of them too (html.js [data-toast], [data-compare-bar], [data-nojs-only]): keep it in step.
// One constant each, not an object: a script's bundle keeps only the names it uses.

export type DataHook = `data-${string}`;

/** Controls needed only without JavaScript (hidden by app.css once the page is scripted). */
export const NOJS_ONLY = "data-nojs-only";

// Site chrome (chrome.ts and the theme's head script).
export const THEME_TOGGLE = "data-theme-toggle";
export const MOBILE_MENU = "data-mobile-menu";
/** Server feedback shown inline without JavaScript, as a toast with it ("success" | "error"). */
export const TOAST = "data-toast";
export const TOAST_CLOSE = "data-toast-close";

// The listing (listing.ts, compare.ts).
export const LIVE_FILTERS = "data-live-filters";
export const FILTER_ACTIONS = "data-filter-actions";
export const LISTING_CONTENT = "data-listing-content";
export const LISTING_LOADING = "data-listing-loading";
/**
 * A filter's choice that shows a count (`type=loa`, `available=1`: an option or the checkbox), and
 * the text beside the checkbox: listing.ts copies their text and `disabled` from each new result.
 */
export const FILTER_CHOICE = "data-filter-choice";
export const FILTER_CHOICE_LABEL = "data-filter-choice-label";
/** The listing's 'N offres trouvées' line (also the results section's label). */
export const RESULT_COUNT_ID = "resultats";
/** The form the cards' 'Comparer' checkboxes belong to (their `form` attribute). */
export const COMPARE_FORM_ID = "compare-form";
export const COMPARE_BAR = "data-compare-bar";
export const COMPARE_STATUS = "data-compare-status";
export const COMPARE_CLEAR = "data-compare-clear";
/** Set on the compare form while offers are checked: app.css shows it as a bar. */
export const COMPARE_ACTIVE = "data-active";
/** The most offers the compare form takes. */
export const COMPARE_MAX = "data-max";

// The contact form (contact.ts, contact-offer-search.ts).
export const CONTACT_FORM = "data-contact-form";
/** The submit button's two labels: at rest and while the form is sent. */
export const SUBMIT_IDLE = "data-idle";
export const SUBMIT_SENDING = "data-sending";
export const SELECTED_OFFER = "data-selected-offer";
export const SELECTED_OFFER_TEMPLATE = "data-selected-offer-template";
export const SELECTED_TITLE = "data-selected-title";
export const SELECTED_REFERENCE = "data-selected-reference";
export const SELECTED_PRICE = "data-selected-price";
/** 'Configuration choisie', with the id of the offer it was chosen on (hidden for another). */
export const CONFIGURED_OFFER = "data-configured-offer";
export const OFFER_SEARCH_ROOT = "data-offer-search";
export const OFFER_SEARCH_ENDPOINT = "data-endpoint";
export const OFFER_SEARCH_LISTBOX_ID = "offer-search-listbox";
export const OFFER_OPTION_TEMPLATE = "data-offer-option-template";
export const OFFER_SEARCH_STATUS = "data-offer-search-status";
export const OFFER_CHOICES = "data-offer-choices";
/** An offer choice (select option or radio button), ready to show: nothing is parsed back. */
export const OFFER_TITLE = "data-title";
export const OFFER_REFERENCE = "data-reference";
export const OFFER_PRICE = "data-price";

// The offer page's configuration (offer-configure.ts).
export const OFFER_CONFIGURE = "data-offer-configure";
/** The price card, swapped as a whole when the configuration changes. */
export const OFFER_PRICE_CARD = "data-offer-price-card";

/** Spread on an element: `<div {...dom.hook(dom.LISTING_CONTENT)} />` renders `data-listing-content=""`. */
export function hook(name: DataHook, value: string | number = ""): Record<DataHook, string> {
  return { [name]: String(value) };
}

/** The CSS selector of an attribute: `[data-listing-content]`. */
export function bySelector(name: DataHook): string {
  return `[${name}]`;
}

/** The contact form's VAT number, computed from the SIREN as typed (issue 29). */
export const VAT_NUMBER = "data-vat-number";
/**
 * The line under the contact form's SIREN naming its company (issue 41, company-lookup.ts), with
 * the address it asks (`/entreprise`); `data-warning` set while it warns of a closed company.
 */
export const COMPANY_LOOKUP = "data-company-lookup";
export const COMPANY_WARNING = "data-warning";
