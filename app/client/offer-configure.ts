// The offer page's `Configurer` form without React: it stays a plain GET form (the configuration
// in the address, server-rendered); here each change fetches the page for the new configuration,
// swaps in its price card and replaces the address. Any failure falls back to a navigation.
import * as dom from "~/lib/dom-hooks";
import { changedSinceLoad } from "./form-state";

const DEBOUNCE_MS = 150;

function start(form: HTMLFormElement) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | null = null;

  async function run() {
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      if (typeof value === "string") params.append(key, value);
    }
    const query = params.toString();
    const url = `${location.pathname}${query ? `?${query}` : ""}`;
    controller?.abort();
    const mine = (controller = new AbortController());
    try {
      const response = await fetch(url, { signal: mine.signal, headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      if (mine !== controller) return;
      const from = doc.querySelector(dom.bySelector(dom.OFFER_PRICE_CARD));
      const to = document.querySelector(dom.bySelector(dom.OFFER_PRICE_CARD));
      if (!from || !to) throw new Error("no price card");
      to.innerHTML = from.innerHTML;
      history.replaceState(null, "", url);
    } catch (error) {
      if ((error as Error).name !== "AbortError") location.assign(url);
    }
  }

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  };
  form.addEventListener("change", schedule);
  form.addEventListener("input", schedule);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    void run();
  });
  if (changedSinceLoad(form)) schedule();
}

const form = document.querySelector<HTMLFormElement>(dom.bySelector(dom.OFFER_CONFIGURE));
if (form) start(form);
