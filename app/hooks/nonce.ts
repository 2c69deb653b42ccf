import { createContext, useContext } from "react";

/**
 * The CSP nonce of the current response (server only; browsers hide it from the DOM). Inside the
 * page it is set only when the page hydrates React (root.tsx): elsewhere scripts need none.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
