import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

const render = (source: string) => renderToStaticMarkup(<Markdown>{source}</Markdown>);

describe("Markdown", () => {
  it("renders headings, emphasis, lists and tables", () => {
    const html = render(
      "## Titre\n\n**gras** et *italique*\n\n- un\n- deux\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    );
    expect(html).toContain("<h2>Titre</h2>");
    expect(html).toContain("<strong>gras</strong>");
    expect(html).toContain("<li>un</li>");
    expect(html).toContain("<table>");
  });

  it("never renders raw HTML", () => {
    const html = render(
      'Avant <script>alert(1)</script> <img src=x onerror="alert(2)"> <b>gras</b> après',
    );
    expect(html).not.toMatch(/<script|<img|onerror|<b>/);
    expect(html).toContain("Avant");
    expect(html).toContain("après");
  });

  it("neutralises javascript: links and opens links safely", () => {
    const html = render("[clic](javascript:alert(1)) [site](https://example.fr)");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('href="https://example.fr"');
    expect(html).toContain('rel="nofollow noopener noreferrer"');
  });
});
