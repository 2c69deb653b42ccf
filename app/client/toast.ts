import * as dom from "~/lib/dom-hooks";

/** How long a success toast stays. */
export const SUCCESS_TOAST_MS = 6000;
/**
 * How long an error toast stays: longer, but not until closed. At the bottom right it covers what
 * lies there (the form's button that must be pressed again); the page keeps the error itself
 * beside its fields.
 */
export const ERROR_TOAST_MS = 10_000;

export type ToastLook = { type: "success" | "error" | "info"; title: string; description?: string };

// The site's one toast (issue 43), on every page, hydrated or not: an element marked `data-toast`
// ("success" | "error") that the server renders (a flash message after a redirect, the contact
// form's answer) or a page's script adds (an admin action answered without a navigation). Without
// JavaScript it stays in the page where it was rendered; with it, app.css places it at the bottom
// right, its close button works and it closes by itself. No React: the public pages do not
// hydrate. Closing hides it rather than removing it: React may own the element.

function dismiss(toast: Element | null): void {
  if (toast instanceof HTMLElement) toast.hidden = true;
}

/** A toast closes by itself, an error later than a success. */
export function timeToast(toast: HTMLElement): void {
  const error = toast.getAttribute(dom.TOAST) === "error";
  setTimeout(() => dismiss(toast), error ? ERROR_TOAST_MS : SUCCESS_TOAST_MS);
}

/**
 * The close buttons of every toast, now and later (one listener: React renders new ones after a
 * navigation), and the timers of the toasts already in the page.
 */
export function enhanceToasts(root: Document): void {
  root.addEventListener("click", (event) => {
    const close =
      event.target instanceof Element && event.target.closest(dom.bySelector(dom.TOAST_CLOSE));
    if (close) dismiss(close.closest(dom.bySelector(dom.TOAST)));
  });
  for (const toast of root.querySelectorAll<HTMLElement>(dom.bySelector(dom.TOAST))) {
    timeToast(toast);
  }
}

/** A toast that the page's script shows (nothing rendered it), at the end of the page. */
export function showToast({ type, title, description }: ToastLook): void {
  const toast = document.createElement("div");
  toast.setAttribute(dom.TOAST, type);
  toast.setAttribute("role", type === "error" ? "alert" : "status");
  const lines = description === undefined ? [title] : [title, description];
  for (const text of lines) toast.appendChild(document.createElement("p")).textContent = text;
  const close = toast.appendChild(document.createElement("button"));
  close.type = "button";
  close.setAttribute(dom.TOAST_CLOSE, "");
  close.setAttribute("aria-label", "Fermer");
  close.textContent = "×";
  document.body.append(toast);
  timeToast(toast);
}
