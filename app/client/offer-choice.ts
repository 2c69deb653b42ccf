// The contact form's chosen offer, shared by contact.ts (selector) and contact-offer-search.ts
// (combobox). The server renders each choice with its ready-to-show text in data-* attributes:
// nothing here parses or formats.
import * as dom from "~/lib/dom-hooks";

/**
 * An offer as the form shows it, read from the page (the server's row is offers.server.ts's
 * OfferChoice); `price` is already formatted ('899,99 €/mois').
 */
export type ShownOffer = { id: string; title: string; reference: string; price: string };

/** The offer a select option or radio button stands for; null for 'Demande générale'. */
export function choiceOf(
  element: Pick<HTMLInputElement, "value" | "getAttribute"> | null | undefined,
): ShownOffer | null {
  if (!element?.value) return null;
  const read = (name: string) => element.getAttribute(name) ?? "";
  return {
    id: element.value,
    title: read(dom.OFFER_TITLE),
    reference: read(dom.OFFER_REFERENCE),
    price: read(dom.OFFER_PRICE),
  };
}

/** Keeps the 'Offre sélectionnée' box in step: filled from its template, or removed. */
export function showSelectedOffer(scope: ParentNode, choice: ShownOffer | null): void {
  // The configuration is of one offer: another chosen, the server drops it, so it is not shown.
  const configured = scope.querySelector<HTMLElement>(dom.bySelector(dom.CONFIGURED_OFFER));
  if (configured) configured.hidden = configured.getAttribute(dom.CONFIGURED_OFFER) !== choice?.id;
  let box = scope.querySelector(dom.bySelector(dom.SELECTED_OFFER));
  if (!choice) {
    box?.remove();
    return;
  }
  const template = scope.querySelector<HTMLTemplateElement>(
    `template${dom.bySelector(dom.SELECTED_OFFER_TEMPLATE)}`,
  );
  if (!box && template?.content.firstElementChild) {
    box = template.content.firstElementChild.cloneNode(true) as Element;
    template.before(box);
  }
  if (!box) return;
  const parts = [
    [dom.SELECTED_TITLE, choice.title],
    [dom.SELECTED_REFERENCE, choice.reference],
    [dom.SELECTED_PRICE, choice.price],
  ] as const;
  for (const [name, text] of parts) {
    const element = box.querySelector(dom.bySelector(name));
    if (element) element.textContent = text;
  }
}
