/**
 * Whether a page ships React to the browser: not when one of its routes exports
 * `handle = { hydrate: false }` (docs/decisions/002-hydration.md); a flash toast needs no React
 * (app/client/toast.ts). Decided once per render, for root.tsx (which loads React Router's
 * scripts) and entry.server.tsx (which gives the CSP nonce only to pages that hydrate).
 */
export function pageHydrates(handles: readonly unknown[]): boolean {
  return !handles.some(
    (handle) =>
      typeof handle === "object" &&
      handle !== null &&
      (handle as { hydrate?: unknown }).hydrate === false,
  );
}
