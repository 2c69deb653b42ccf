import { renderToStaticMarkup } from "react-dom/server";
import { MarkdownContent } from "./markdown";
import { keptIn } from "~/lib/kept-in";

const MAX_KEPT = 500;
const kept = new Map<string, string>();

/**
 * A catalogue text's markdown as HTML, rendered once per text (react-markdown and its parsers cost
 * about a tenth of an offer page's render) and kept for the next pages: a changed description is
 * another text. At most MAX_KEPT texts, the oldest out first.
 */
export function markdownHtml(source: string): string {
  return keptIn(kept, source, MAX_KEPT, () =>
    renderToStaticMarkup(<MarkdownContent>{source}</MarkdownContent>),
  );
}
