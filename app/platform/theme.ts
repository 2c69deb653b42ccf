import * as dom from "~/lib/dom-hooks";

/**
 * The whole theme, in <head> before first paint (no flash of the wrong theme): applies the stored
 * choice or the system's, follows the system while no choice is stored, and handles every theme
 * toggle by delegation (from the system theme it goes to the opposite of what is shown, then flips
 * between light and dark). One copy: the site chrome's script has none. Its text is fixed at build
 * time for a given key, so the CSP can hash it.
 */
export function themeBootScript(storageKey: string): string {
  const key = JSON.stringify(storageKey);
  const toggle = JSON.stringify(dom.bySelector(dom.THEME_TOGGLE));
  return (
    `(function(){var r=document.documentElement;r.classList.add("js");` +
    `function g(){try{return localStorage.getItem(${key})}catch(e){return null}}` +
    `function a(d){r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light"}` +
    `try{var m=matchMedia("(prefers-color-scheme: dark)"),t=g();` +
    `a(t==="dark"||((!t||t==="system")&&m.matches));` +
    `var f=function(){var t=g();if(!t||t==="system")a(m.matches)};` +
    `m.addEventListener?m.addEventListener("change",f):m.addListener(f)}catch(e){}` +
    `document.addEventListener("click",function(e){var b=e.target;` +
    `if(!(b instanceof Element&&b.closest(${toggle})))return;var d=!r.classList.contains("dark");` +
    `try{localStorage.setItem(${key},d?"dark":"light")}catch(e){}a(d)})})()`
  );
}
