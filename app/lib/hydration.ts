/**
 * Whether a page ships React to the browser: not when one of its routes exports
 * `handle = { hydrate: false }` (docs/decisions/002-hydration.md), unless it shows a flash toast,
 * which needs React (sonner). root.tsx renders React Router's scripts, and with them the CSP
 * nonce, only for such a page.
 */
export function pageHydrates(handles: readonly unknown[], showsToast: boolean): boolean {
  return (
    showsToast ||
    !handles.some(
      (handle) =>
        typeof handle === "object" &&
        handle !== null &&
        (handle as { hydrate?: unknown }).hydrate === false,
    )
  );
}
