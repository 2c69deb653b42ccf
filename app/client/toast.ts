import * as dom from "~/lib/dom-hooks";

/** How long a success toast stays; errors stay until closed. */
export const SUCCESS_TOAST_MS = 6000;

/**
 * The public pages' toasts (no React there, so no sonner): feedback the server rendered inline
 * (`data-toast`, e.g. the contact form's result) becomes a dismissible toast, placed by
 * app.css once the page is scripted. A success closes by itself.
 */
export function enhanceToasts(root: ParentNode): void {
  for (const toast of root.querySelectorAll<HTMLElement>(dom.bySelector(dom.TOAST))) {
    toast
      .querySelector(dom.bySelector(dom.TOAST_CLOSE))
      ?.addEventListener("click", () => toast.remove());
    if (toast.getAttribute(dom.TOAST) === "success") {
      setTimeout(() => toast.remove(), SUCCESS_TOAST_MS);
    }
  }
}
