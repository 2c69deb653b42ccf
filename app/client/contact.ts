// The contact page without React: the 'Offre sélectionnée' box follows the selector and the button
// says 'Envoi en cours...' while the form is sent; the server's feedback becomes a toast (chrome.ts).
// Without JavaScript the same form posts normally and the feedback shows inline.
import * as dom from "~/lib/dom-hooks";
import { compactSiren, isValidSiren, vatNumberOf } from "~/lib/siren";
import { choiceOf, showSelectedOffer } from "./offer-choice";

function start(form: HTMLFormElement) {
  const select = form.querySelector<HTMLSelectElement>("select[name=offer]");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");

  const showSelected = () => {
    if (select) showSelectedOffer(form, choiceOf(select.selectedOptions[0]));
  };

  const setSending = (sending: boolean) => {
    if (!button) return;
    button.disabled = sending;
    const idle = button.querySelector<HTMLElement>(dom.bySelector(dom.SUBMIT_IDLE));
    const busy = button.querySelector<HTMLElement>(dom.bySelector(dom.SUBMIT_SENDING));
    if (idle) idle.hidden = sending;
    if (busy) busy.hidden = !sending;
  };

  // The VAT number follows the SIREN as it is typed.
  const siren = form.querySelector<HTMLInputElement>("input[name=siren]");
  const vat = form.querySelector<HTMLElement>(dom.bySelector(dom.VAT_NUMBER));
  const showVat = () => {
    if (!siren || !vat) return;
    const compact = compactSiren(siren.value);
    vat.textContent = isValidSiren(compact) ? vatNumberOf(compact) : "";
  };
  siren?.addEventListener("input", showVat);

  select?.addEventListener("change", showSelected);
  form.addEventListener("submit", (event) => {
    if (!event.defaultPrevented) setSending(true);
  });
  // Back to this page from the browser's cache: the form is usable again, the box up to date.
  window.addEventListener("pageshow", () => {
    setSending(false);
    showSelected();
    showVat();
  });
  showSelected();
}

const form = document.querySelector(`form${dom.bySelector(dom.CONTACT_FORM)}`);
if (form instanceof HTMLFormElement) start(form);
