// The offers listing without React: filters apply as the visitor types. The form stays a plain GET
// form (it works without JavaScript); here each change fetches the server-rendered page at the
// canonical address of the new filters (the loader's own offerFiltersToSearch), swaps in its
// results and replaces the address, without a page load. Any failure falls back to a navigation.
import * as dom from "~/lib/dom-hooks";
import { SOURCE_PARAM, withSource } from "~/lib/attribution";
import { filterFormPath } from "~/lib/offer-filters";
import { changedSinceLoad } from "./form-state";

const DEBOUNCE_MS = 300;
const SPINNER_DELAY_MS = 150;
/** The parts of the page a new result replaces, found by the same hook in both documents. */
const SWAPPED = [dom.LISTING_CONTENT, dom.FILTER_ACTIONS] as const;

function formFields(form: HTMLFormElement): URLSearchParams {
  const fields = new URLSearchParams();
  for (const [key, value] of new FormData(form)) {
    if (typeof value === "string") fields.append(key, value);
  }
  return fields;
}

/** Swaps the new page's results in; false when it is not a listing page. */
function apply(doc: Document): boolean {
  for (const name of SWAPPED) {
    const from = doc.querySelector(dom.bySelector(name));
    const to = document.querySelector(dom.bySelector(name));
    if (!from || !to) return false;
    to.innerHTML = from.innerHTML;
  }
  copyChoices(doc);
  const count = doc.getElementById(dom.RESULT_COUNT_ID);
  const shown = document.getElementById(dom.RESULT_COUNT_ID);
  if (count && shown && shown.textContent !== count.textContent) {
    shown.textContent = count.textContent;
  }
  return true;
}

/**
 * The filters' counts of the new result ('Paris (4)', disabled at 0), choice by choice: the form
 * itself stays, with what the visitor has chosen or is typing.
 */
function copyChoices(doc: Document) {
  for (const name of [dom.FILTER_CHOICE, dom.FILTER_CHOICE_LABEL] as const) {
    const shown = new Map<string, Element>();
    for (const el of document.querySelectorAll(dom.bySelector(name))) {
      shown.set(el.getAttribute(name) ?? "", el);
    }
    for (const from of doc.querySelectorAll(dom.bySelector(name))) {
      const to = shown.get(from.getAttribute(name) ?? "");
      if (!to) continue;
      if (to instanceof HTMLOptionElement || to instanceof HTMLInputElement) {
        to.disabled = from.hasAttribute("disabled");
      }
      if (!(to instanceof HTMLInputElement) && to.textContent !== from.textContent) {
        to.textContent = from.textContent;
      }
    }
  }
}

function setLoading(loading: boolean) {
  const spinner = document.querySelector<HTMLElement>(dom.bySelector(dom.LISTING_LOADING));
  const content = document.querySelector<HTMLElement>(dom.bySelector(dom.LISTING_CONTENT));
  if (spinner) spinner.hidden = !loading;
  if (content) content.hidden = loading;
}

function start(form: HTMLFormElement) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | null = null;
  let current = location.pathname + location.search;

  async function run() {
    const fields = formFields(form);
    const url = withSource(filterFormPath(fields), fields.get(SOURCE_PARAM));
    if (url === current) return;
    current = url;
    controller?.abort();
    const mine = (controller = new AbortController());
    const spinnerTimer = setTimeout(() => setLoading(true), SPINNER_DELAY_MS);
    try {
      const response = await fetch(url, { signal: mine.signal, headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const html = await response.text();
      if (mine !== controller) return;
      clearTimeout(spinnerTimer);
      if (!apply(new DOMParser().parseFromString(html, "text/html"))) {
        throw new Error("unexpected page");
      }
      setLoading(false);
      history.replaceState(history.state, "", url);
    } catch (error) {
      clearTimeout(spinnerTimer);
      if (error instanceof DOMException && error.name === "AbortError") return;
      location.assign(url);
    }
  }

  const schedule = (delay: number) => {
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  };

  form.addEventListener("input", (event) => {
    schedule(event.target instanceof HTMLSelectElement ? 0 : DEBOUNCE_MS);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    void run();
  });
  if (changedSinceLoad(form)) schedule(0);
}

const form = document.querySelector(`form${dom.bySelector(dom.LIVE_FILTERS)}`);
if (form instanceof HTMLFormElement) start(form);
