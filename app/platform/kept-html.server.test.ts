import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { keptHtml } from "./kept-html.server";

const MARK = "/*css*/";
const PREFIX = Buffer.from("<!DOCTYPE html>");

/** A page with a stylesheet mark, two kept parts and the visitor's text between them. */
function render(visitorText: string) {
  const kept = keptHtml();
  const html = renderToStaticMarkup(
    createElement(
      "html",
      null,
      createElement("head", null, createElement("style", null, MARK)),
      createElement(
        "body",
        null,
        kept.keep("test part a", createElement("p", { className: "a" }, "Livrable — été")),
        createElement("input", { defaultValue: visitorText }),
        kept.keep("test part b", createElement("p", { className: "b" }, "€ HT")),
      ),
    ),
  );
  return kept.splice(html);
}

describe("kept HTML put together as bytes", () => {
  it("puts the parts and the stylesheet in place, in UTF-8", () => {
    const page = render("epyc");
    expect(page.parts).toEqual(['<p class="a">Livrable — été</p>', '<p class="b">€ HT</p>']);
    const bytes = page.bytes(PREFIX, MARK, Buffer.from(".a{color:red}"));
    expect(bytes.toString("utf8")).toBe(
      '<!DOCTYPE html><html><head><style>.a{color:red}</style></head><body><p class="a">Livrable — été</p><input value="epyc"/><p class="b">€ HT</p></body></html>',
    );
  });

  it("replaces the first mark only: the same text from a visitor stays text", () => {
    const page = render(`x ${MARK} y`);
    const html = page.bytes(PREFIX, MARK, Buffer.from('[data-x="1"]{}')).toString("utf8");
    expect(html).toContain('<style>[data-x="1"]{}</style>');
    expect(html).toContain(`<input value="x ${MARK} y"/>`);
  });

  it("leaves a page without parts as it is", () => {
    const kept = keptHtml();
    const page = kept.splice("<p>rien</p>");
    expect(page.parts).toEqual([]);
    expect(page.bytes(Buffer.alloc(0), MARK, Buffer.from("x")).toString()).toBe("<p>rien</p>");
  });
});
