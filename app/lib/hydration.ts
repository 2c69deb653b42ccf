/**
 * Whether a page ships React to the browser: not when one of its routes exports
 * `handle = { hydrate: false }` (docs/decisions/002-hydration.md), unless it shows a flash toast,
 * which needs React (sonner). Decided once per render, for root.tsx (which loads React Router's
 * scripts) and entry.server.tsx (which gives the CSP nonce only to pages that hydrate).
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
