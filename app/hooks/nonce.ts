import { createContext, useContext } from "react";

/**
 * The CSP nonce of the current response (server only; browsers hide it from the DOM). Only React
 * Router's inline scripts carry it, on pages that hydrate (root.tsx): other scripts are files or
 * allowed by their hash, so a page that does not hydrate is the same bytes for every visitor.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
