import { renderToStaticMarkup } from "react-dom/server";
import { MarkdownContent } from "./markdown";
import { memo } from "~/lib/memo";

/**
 * A catalogue text's markdown as HTML, rendered once per text (react-markdown and its parsers cost
 * about a tenth of an offer page's render) and kept for the next pages: a changed description is
 * another text. At most 500 texts, the least recently used out first.
 */
export const markdownHtml = memo(
  (source: string): string => renderToStaticMarkup(<MarkdownContent>{source}</MarkdownContent>),
  { max: 500 },
);
