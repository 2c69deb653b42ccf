import { createContext, useContext } from "react";

/**
 * The CSP nonce of the current response (server only; browsers hide it from the DOM), set only
 * when the page hydrates (entry.server.tsx), for React Router's inline scripts: other scripts are
 * files or allowed by their hash, so a page that does not hydrate is the same bytes for everyone.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
