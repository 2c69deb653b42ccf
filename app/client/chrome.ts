// Site chrome without React, on every page, hydrated or not: the mobile menu and the server's
// toasts. The theme is the head script's (app/lib/theme.ts). Event delegation survives re-renders.
import * as dom from "~/lib/dom-hooks";
import { enhanceToasts } from "./toast";

const MENU = `details${dom.bySelector(dom.MOBILE_MENU)}`;

function closeMenus(except: Element | null) {
  for (const menu of document.querySelectorAll<HTMLDetailsElement>(`${MENU}[open]`)) {
    if (menu !== except) menu.open = false;
  }
}

document.addEventListener("click", (event) => {
  const target = event.target;
  // The theme toggle is the head script's; it leaves an open menu open.
  if (!(target instanceof Element) || target.closest(dom.bySelector(dom.THEME_TOGGLE))) return;
  const menu = target.closest<HTMLDetailsElement>(MENU);
  if (menu && target.closest("a")) menu.open = false;
  else if (!menu) closeMenus(null);
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const open = document.querySelector<HTMLDetailsElement>(`${MENU}[open]`);
  if (!open) return;
  open.open = false;
  open.querySelector("summary")?.focus();
});

enhanceToasts(document);
