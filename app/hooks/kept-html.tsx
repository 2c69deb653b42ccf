import { createContext, useContext, type ReactElement } from "react";

/**
 * Parts of public pages that depend only on what their `id` says (the site chrome, an offer's
 * card) are rendered to HTML once and reused by the next renders (issue 31: most of an uncached
 * page's render time was the same header, footer and cards again). The server gives this context
 * only to pages that do not hydrate (entry.server.tsx, app/platform/kept-html.server.ts); elsewhere,
 * and in the browser, the element renders as usual. A kept element reads no React context: its
 * props and its id say everything it shows.
 */
export type KeepHtml = (id: string, element: ReactElement) => ReactElement;

export const KeptHtmlContext = createContext<KeepHtml | undefined>(undefined);

export function KeptHtml({ id, children }: { id: string; children: ReactElement }) {
  const keep = useContext(KeptHtmlContext);
  return keep ? keep(id, children) : children;
}
