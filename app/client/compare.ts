// The listing's comparison without React. Without JavaScript the cards' checkboxes are sent by the
// compare form (GET /comparer). Here the selection survives pages and filters (sessionStorage),
// the form becomes a bar at the bottom of the screen, and at most data-max boxes can be checked.
import {
  compareHref,
  compareStatusText,
  MAX_COMPARED,
  readStoredSelection,
  toggleSelection,
} from "~/features/offers/compare";
import { SOURCE_PARAM, withSource } from "~/lib/attribution";
import * as dom from "~/lib/dom-hooks";

const STORAGE_KEY = "compare-offers";

function start(form: HTMLFormElement) {
  const max = Number(form.getAttribute(dom.COMPARE_MAX)) || MAX_COMPARED;
  const status = form.querySelector(dom.bySelector(dom.COMPARE_STATUS));
  const clear = form.querySelector<HTMLElement>(dom.bySelector(dom.COMPARE_CLEAR));
  const submit = form.querySelector<HTMLButtonElement>("[type=submit]");
  if (!status || !clear || !submit) return;
  let selected: string[] = [];
  try {
    selected = readStoredSelection(sessionStorage.getItem(STORAGE_KEY), max);
  } catch {
    // Storage unavailable (privacy settings): the selection lasts for this page only.
  }

  const save = () => {
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(selected));
    } catch {
      // Same as above.
    }
  };

  const boxes = () =>
    document.querySelectorAll<HTMLInputElement>(`input[form="${dom.COMPARE_FORM_ID}"]`);

  const sync = () => {
    for (const box of boxes()) {
      box.checked = selected.includes(box.value);
      box.disabled = !box.checked && selected.length >= max;
    }
    const n = selected.length;
    form.toggleAttribute(dom.COMPARE_ACTIVE, n > 0);
    clear.hidden = n === 0;
    submit.disabled = n < 2;
    const text = compareStatusText(n, max);
    if (status.textContent !== text) status.textContent = text;
  };

  const update = (next: string[]) => {
    selected = next;
    save();
    sync();
  };

  document.addEventListener("change", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || box.form !== form) return;
    update(toggleSelection(selected, box.value, box.checked, max));
  });
  clear.addEventListener("click", () => update([]));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const src = new FormData(form).get(SOURCE_PARAM);
    if (selected.length) location.assign(withSource(compareHref(selected), src?.toString()));
  });
  // listing.ts swaps the results in: check the boxes of the new cards.
  const content = document.querySelector(dom.bySelector(dom.LISTING_CONTENT));
  if (content) new MutationObserver(sync).observe(content, { childList: true });
  // Boxes ticked before this script ran (a quick tap while the page loads, or the browser restoring
  // the form on Back) join the selection instead of being unticked by the first sync.
  const ticked = [...boxes()].filter((box) => box.checked);
  update(ticked.reduce((next, box) => toggleSelection(next, box.value, true, max), selected));
}

const form = document.getElementById(dom.COMPARE_FORM_ID);
if (form instanceof HTMLFormElement) start(form);
