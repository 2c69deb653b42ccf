/** Runs in <head> before first paint: applies the stored or system theme, so no flash of the wrong one. */
export function themeBootScript(storageKey: string): string {
  return `(function(){var r=document.documentElement;r.classList.add("js");try{var t=localStorage.getItem(${JSON.stringify(
    storageKey,
  )});var d=t==="dark"||((!t||t==="system")&&matchMedia("(prefers-color-scheme: dark)").matches);r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light"}catch(e){}})()`;
}
