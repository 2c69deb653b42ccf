import { describe, expect, it } from "vitest";
import { xmlElement, xmlEscape } from "./xml";

describe("xmlEscape", () => {
  it("escapes the five special characters", () => {
    expect(xmlEscape(`a & b < c > d "e" 'f'`)).toBe(
      "a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;",
    );
  });

  it("escapes an ampersand once, even before an entity", () => {
    expect(xmlEscape("&amp;")).toBe("&amp;amp;");
  });

  it("drops characters XML cannot carry and keeps tabs, line breaks and accents", () => {
    expect(xmlEscape("a\u0000b\u0007c\u001fd\tE\nf\r — Épique 🚀")).toBe(
      "abcd\tE\nf\r — Épique 🚀",
    );
    expect(xmlEscape("x\ud800y\udc00z")).toBe("xyz");
  });
});

describe("xmlElement", () => {
  it("writes escaped attributes and text, skipping undefined attributes", () => {
    expect(xmlElement("link", { rel: "alternate", href: "/a?b=1&c=<2>", title: undefined })).toBe(
      '<link rel="alternate" href="/a?b=1&amp;c=&lt;2&gt;"/>',
    );
    expect(xmlElement("title", { type: "text" }, "R&D <serveurs>")).toBe(
      '<title type="text">R&amp;D &lt;serveurs&gt;</title>',
    );
    expect(xmlElement("summary", {}, "")).toBe("<summary></summary>");
  });
});
