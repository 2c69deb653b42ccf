import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { KeepHtml } from "~/hooks/kept-html";
import { LRUCache } from "lru-cache";

/** A kept part: its HTML, and the same in UTF-8, encoded once. */
type KeptPart = { html: string; bytes: Buffer };

/**
 * The HTML of kept parts (app/hooks/kept-html.tsx), by id. An id names everything the part shows
 * (an offer card's id holds the offer's fields), so an entry is never stale: a changed offer is
 * a new id, and the least recently used ids leave first.
 */
// Not on ~/lib/memo: the key is the id a caller writes (the element cannot be a key), the very
// thing issue 43 removes with kept parts. Until then, lru-cache directly.
const kept = new LRUCache<string, KeptPart>({ max: 2000 });

const PLACE = "kept-html";
const placeholder = new RegExp(`<${PLACE} data-n="(\\d+)"></${PLACE}>`, "g");

/** A page rendered with kept parts, before it is put together (see keptHtml). */
export type SplicedPage = {
  /** The kept parts' HTML, in page order: the same strings from one render to the next. */
  parts: string[];
  /**
   * The whole page in UTF-8: `prefix`, then the page with the first `mark` in its own HTML
   * replaced by `insert`. Only the page's own HTML is encoded; the parts' bytes are kept.
   */
  bytes(prefix: Buffer, mark: string, insert: Buffer): Buffer<ArrayBuffer>;
};

/**
 * For one render: `keep` answers a placeholder element and notes the part; `splice`, once the page
 * is rendered, finds the placeholders and the parts' HTML (rendering those no earlier page kept).
 * page-css.server.ts reads the parts' classes once each.
 */
export function keptHtml(): { keep: KeepHtml; splice: (html: string) => SplicedPage } {
  const elements: [string, ReactElement][] = [];
  const keep: KeepHtml = (id, element) => {
    elements.push([id, element]);
    return createElement(PLACE, { "data-n": elements.length - 1 });
  };
  const partOf = ([id, element]: [string, ReactElement]) => {
    const found = kept.get(id);
    if (found) return found;
    const html = renderToStaticMarkup(element);
    const part = { html, bytes: Buffer.from(html) };
    kept.set(id, part);
    return part;
  };
  const splice = (html: string): SplicedPage => {
    // The page's own HTML between parts, and the parts in between.
    const texts: string[] = [];
    const parts: KeptPart[] = [];
    let from = 0;
    if (elements.length > 0) {
      for (const match of html.matchAll(placeholder)) {
        texts.push(html.slice(from, match.index));
        parts.push(partOf(elements[Number(match[1])]));
        from = match.index + match[0].length;
      }
    }
    texts.push(from === 0 ? html : html.slice(from));
    return {
      parts: parts.map((part) => part.html),
      bytes(prefix, mark, insert) {
        const chunks = [prefix];
        // The first mark only (the stylesheet's, in <head>): the same text further down is the
        // visitor's (a search term), not ours.
        let marked = false;
        texts.forEach((text, i) => {
          const at = marked ? -1 : text.indexOf(mark);
          if (at === -1) chunks.push(Buffer.from(text));
          else {
            marked = true;
            chunks.push(Buffer.from(text.slice(0, at)), insert);
            chunks.push(Buffer.from(text.slice(at + mark.length)));
          }
          if (i < parts.length) chunks.push(parts[i].bytes);
        });
        return Buffer.concat(chunks);
      },
    };
  };
  return { keep, splice };
}
