// The contact form's offer search with JavaScript (docs/decisions/019): the search input becomes a
// combobox (WAI-ARIA APG, list autocomplete) whose options come from /contact/offers?q=. The
// choice travels in a hidden `offer` input; without JavaScript the page's GET search and radio
// buttons do the same. Loaded only when the catalogue is too large for the spec's selector.
import type { OfferSearchAnswer } from "~/routes/resources/contact-offers";
import * as dom from "~/lib/dom-hooks";
import { choiceOf, showSelectedOffer, type ShownOffer } from "./offer-choice";
import {
  arrowTarget,
  choiceLabel,
  comboboxResult,
  GENERAL_CHOICE,
  SEARCH_UNAVAILABLE,
  type ComboboxResult,
} from "./offer-combobox";

const DEBOUNCE_MS = 200;

function start(root: HTMLElement) {
  const input = root.querySelector<HTMLInputElement>("input[type=search]");
  const listbox = root.querySelector<HTMLElement>("[role=listbox]");
  const optionTemplate = root.querySelector<HTMLTemplateElement>(
    `template${dom.bySelector(dom.OFFER_OPTION_TEMPLATE)}`,
  );
  const status = root.querySelector(dom.bySelector(dom.OFFER_SEARCH_STATUS));
  const choices = root.querySelector(dom.bySelector(dom.OFFER_CHOICES));
  const endpoint = root.getAttribute(dom.OFFER_SEARCH_ENDPOINT);
  const optionModel = optionTemplate?.content.firstElementChild;
  if (!input || !listbox || !optionModel || !status || !endpoint) return;

  // The server's choice (preselection, search without JavaScript) becomes the combobox's state.
  let selected = choiceOf(choices?.querySelector<HTMLInputElement>("input[name=offer]:checked"));
  let items: ShownOffer[] = selected ? [GENERAL_CHOICE, selected] : [GENERAL_CHOICE];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: AbortController | null = null;
  const cache = new Map<string, ComboboxResult>();

  // The radio buttons are hidden from the first paint (data-nojs-only): removing them moves nothing.
  choices?.remove();
  const hidden = document.createElement("input");
  hidden.type = "hidden";
  hidden.name = "offer";
  root.appendChild(hidden);

  input.removeAttribute("name");
  input.removeAttribute("form");
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("aria-controls", listbox.id);

  const showSelected = () => {
    hidden.value = selected?.id ?? "";
    input.value = selected ? choiceLabel(selected) : "";
    showSelectedOffer(root, selected);
  };

  const announce = (text: string) => {
    // Cleared first so that the same count said twice is read twice.
    status.textContent = "";
    setTimeout(() => (status.textContent = text), 50);
  };

  const setActive = (index: number) => {
    active = index;
    const options = listbox.children;
    for (let i = 0; i < options.length; i++) {
      options[i].setAttribute("aria-selected", i === index ? "true" : "false");
    }
    const option = options[index];
    if (index >= 0 && option) {
      input.setAttribute("aria-activedescendant", option.id);
      option.scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  };

  const render = () => {
    listbox.textContent = "";
    items.forEach((item, index) => {
      const option = optionModel.cloneNode(true) as HTMLElement;
      option.id = `offer-option-${index}`;
      option.textContent = choiceLabel(item);
      if (item.price) {
        const price = document.createElement("span");
        price.className = "ml-2 text-muted-foreground";
        price.textContent = item.price;
        option.appendChild(price);
      }
      option.dataset.index = String(index);
      listbox.appendChild(option);
    });
    setActive(-1);
  };

  const open = () => {
    listbox.hidden = false;
    input.setAttribute("aria-expanded", "true");
  };

  const close = () => {
    listbox.hidden = true;
    input.setAttribute("aria-expanded", "false");
    setActive(-1);
  };

  const choose = (index: number) => {
    const item = items[index];
    if (!item) return;
    selected = item.id ? item : null;
    close();
    showSelected();
  };

  const show = (result: ComboboxResult) => {
    items = result.choices;
    render();
    open();
    announce(result.message);
  };

  const search = async () => {
    const term = input.value.trim();
    if (!term) return show({ choices: [GENERAL_CHOICE], message: "", cacheable: false });
    const known = cache.get(term);
    if (known) return show(known);
    pending?.abort();
    const request = (pending = new AbortController());
    try {
      const response = await fetch(`${endpoint}?q=${encodeURIComponent(term)}`, {
        signal: request.signal,
        headers: { Accept: "application/json" },
      });
      const result = comboboxResult((await response.json()) as OfferSearchAnswer);
      if (result.cacheable) cache.set(term, result);
      if (input.value.trim() === term) show(result);
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return;
      show({ choices: [GENERAL_CHOICE], message: SEARCH_UNAVAILABLE, cacheable: false });
    }
  };

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, DEBOUNCE_MS);
  });

  input.addEventListener("keydown", (event) => {
    const { key } = event;
    if (key === "ArrowDown" || key === "ArrowUp") {
      event.preventDefault();
      const wasOpen = !listbox.hidden;
      const next = arrowTarget(key, {
        open: wasOpen,
        active,
        count: items.length,
        altKey: event.altKey,
      });
      if (!wasOpen) {
        render();
        open();
      }
      setActive(next);
    } else if (key === "Enter") {
      // Never sends the contact form from here: Enter chooses.
      event.preventDefault();
      if (!listbox.hidden && active >= 0) choose(active);
    } else if (key === "Escape") {
      if (!listbox.hidden) {
        event.preventDefault();
        close();
      } else {
        showSelected();
      }
    } else if (key === "Tab") {
      close();
    }
  });

  input.addEventListener("click", () => {
    if (!listbox.hidden) return;
    render();
    open();
  });

  // Keeps the focus in the input while an option is clicked.
  listbox.addEventListener("mousedown", (event) => event.preventDefault());
  listbox.addEventListener("click", (event) => {
    const option = event.target instanceof Element && event.target.closest("[role=option]");
    if (option instanceof HTMLElement) choose(Number(option.dataset.index));
  });

  // Leaving the field: the text goes back to what is chosen (typing alone chooses nothing).
  input.addEventListener("blur", () => {
    close();
    showSelected();
  });

  showSelected();
}

const root = document.querySelector(dom.bySelector(dom.OFFER_SEARCH_ROOT));
if (root instanceof HTMLElement) start(root);
