import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { KeepHtml } from "~/hooks/kept-html";
import { keptIn } from "~/lib/kept-in";

/**
 * The HTML of kept parts (app/hooks/kept-html.tsx), by id. An id names everything the part shows
 * (an offer card's id holds the offer's fields), so an entry is never stale: a changed offer is
 * a new id, and the oldest ids leave first.
 */
const kept = new Map<string, string>();
const MAX_KEPT = 2000;

const PLACE = "kept-html";
const placeholder = new RegExp(`<${PLACE} data-n="(\\d+)"></${PLACE}>`, "g");

/**
 * For one render: `keep` answers a placeholder element and notes the part; `splice`, once the page
 * is rendered, puts the parts' HTML in its place (rendering those no earlier page kept). It also
 * answers the parts' HTML: the same strings from one render to the next, whose classes
 * page-css.server.ts reads once each.
 */
export function keptHtml(): {
  keep: KeepHtml;
  splice: (html: string) => { html: string; parts: string[] };
} {
  const parts: [string, ReactElement][] = [];
  const keep: KeepHtml = (id, element) => {
    parts.push([id, element]);
    return createElement(PLACE, { "data-n": parts.length - 1 });
  };
  const htmlOf = ([id, element]: [string, ReactElement]) =>
    keptIn(kept, id, MAX_KEPT, () => renderToStaticMarkup(element));
  const splice = (html: string) => {
    if (parts.length === 0) return { html, parts: [] };
    const used: string[] = [];
    const whole = html.replace(placeholder, (_, n: string) => {
      const part = htmlOf(parts[Number(n)]);
      used.push(part);
      return part;
    });
    return { html: whole, parts: used };
  };
  return { keep, splice };
}
