/**
 * Whether a control of `form` differs from the page's HTML: changed by the visitor before the
 * page's script ran (a quick tap on a slow phone) or restored by the browser on Back. The script
 * then applies it at once instead of waiting for the next change.
 */
export function changedSinceLoad(form: HTMLFormElement): boolean {
  for (const control of form.elements) {
    if (control instanceof HTMLInputElement) {
      const checkable = control.type === "checkbox" || control.type === "radio";
      if (
        checkable
          ? control.checked !== control.defaultChecked
          : control.value !== control.defaultValue
      )
        return true;
    } else if (control instanceof HTMLSelectElement) {
      if ([...control.options].some((option) => option.selected !== option.defaultSelected))
        return true;
    } else if (control instanceof HTMLTextAreaElement) {
      if (control.value !== control.defaultValue) return true;
    }
  }
  return false;
}
