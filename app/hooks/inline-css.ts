import { createContext, useContext } from "react";

/**
 * The site's stylesheet, inlined in <head> by the server (entry.server.tsx) so that the first paint
 * waits for no other request. Undefined in the browser: the <style> element keeps its server text.
 */
export const InlineCssContext = createContext<string | undefined>(undefined);

export function useInlineCss(): string | undefined {
  return useContext(InlineCssContext);
}
