import { describe, expect, it } from "vitest";
import { cssBytesForPage, cssForPage } from "./page-css.server";

// Tailwind's minified shape: layers, utilities with escaped names, at-rules around utilities.
const CSS = [
  "@layer theme{:root{--x:1}}",
  "@layer base{body{margin:0}}",
  "@layer utilities{",
  ".flex{display:flex}",
  ".hidden{display:none}",
  ".ml-2{margin-left:.5rem}",
  ".hover\\:bg-primary\\/90:hover{opacity:.9}",
  ".\\[\\&_a\\]\\:underline a{text-decoration-line:underline}",
  ".dark\\:hidden:where(.dark,.dark *){display:none}",
  ":is(:where(.group):hover .group-hover\\:shadow-md){box-shadow:none}",
  "@media(min-width:48rem){.md\\:flex{display:flex}.md\\:grid{display:grid}}",
  "}",
  ":root{--radius:.5rem}",
].join("");

const utilities = (css: string) =>
  css.slice(css.indexOf("@layer utilities{"), css.indexOf("}:root"));

describe("cssForPage", () => {
  it("keeps every layer but the utilities, and the utilities the page's classes name", () => {
    const css = cssForPage(CSS, '<div class="flex  md:flex"><p class="x">a</p></div>');
    expect(css.startsWith("@layer theme{:root{--x:1}}@layer base{body{margin:0}}")).toBe(true);
    expect(css.endsWith(":root{--radius:.5rem}")).toBe(true);
    // ml-2: a class the scripts add (SCRIPT_CLASSES).
    expect(utilities(css)).toBe(
      "@layer utilities{.flex{display:flex}.ml-2{margin-left:.5rem}@media(min-width:48rem){.md\\:flex{display:flex}}",
    );
  });

  it("reads escaped names, and HTML-escaped class attributes", () => {
    const html = '<a class="hover:bg-primary/90"></a><div class="[&amp;_a]:underline"></div>';
    expect(utilities(cssForPage(CSS, html))).toContain(".hover\\:bg-primary\\/90:hover");
    expect(utilities(cssForPage(CSS, html))).toContain(".\\[\\&_a\\]\\:underline a");
  });

  it("drops an at-rule left empty, and rules decided by markers alone (dark, group)", () => {
    const css = utilities(cssForPage(CSS, '<html class="dark"><div class="group"></div></html>'));
    expect(css).not.toContain("@media");
    expect(css).not.toContain("dark\\:hidden");
    expect(css).not.toContain("group-hover");
    const named = cssForPage(
      CSS,
      '<div class="group"><p class="group-hover:shadow-md dark:hidden">',
    );
    expect(named).toContain("group-hover\\:shadow-md");
    expect(named).toContain("dark\\:hidden");
  });

  it("reads only class attributes, whatever the spacing inside them", () => {
    const html =
      '<div data-class="hidden" title="class=&quot;hidden"></div><p class="\n flex\thidden ">';
    const css = utilities(cssForPage(CSS, html));
    expect(css).toContain(".hidden{display:none}");
    expect(cssForPage(CSS, '<div data-class="hidden"></div>')).not.toContain(".hidden{");
  });

  it("gives the same sheet for the same classes, and the whole sheet without a utilities layer", () => {
    expect(cssForPage(CSS, '<b class="flex hidden">')).toBe(
      cssForPage(CSS, '<i class="hidden flex">'),
    );
    expect(cssForPage("body{margin:0}", '<b class="flex">')).toBe("body{margin:0}");
  });

  it("counts the classes of the kept parts as the page's own", () => {
    const page = '<div class="flex"><kept-html data-n="0"></kept-html></div>';
    const part = '<p class="md:flex [&amp;_a]:underline"></p>';
    const whole = page.replace('<kept-html data-n="0"></kept-html>', part);
    expect(cssForPage(CSS, page, [part])).toBe(cssForPage(CSS, whole));
    expect(cssForPage(CSS, page, [part])).toContain(".md\\:flex");
    expect(cssForPage(CSS, page)).not.toContain(".md\\:flex");
  });

  it("gives the same cut in UTF-8, encoded once per cut", () => {
    const html = '<div class="hidden md:grid">é</div>';
    const bytes = cssBytesForPage(CSS, html);
    expect(bytes.toString("utf8")).toBe(cssForPage(CSS, html));
    expect(cssBytesForPage(CSS, '<p class="md:grid hidden">autre page</p>')).toBe(bytes);
  });

  it("keeps the @property rules and defaults of the variables the kept rules read, and no other", () => {
    const sheet = [
      "@layer properties{@supports (-moz-orient:inline){*,:before,:after,::backdrop{",
      "--tw-shadow:0 0 #0000;--tw-border-style:solid;--tw-blur:initial}}}",
      "@layer utilities{",
      ".border{border-style:var(--tw-border-style);border-width:1px}",
      ".shadow{--tw-shadow:0 1px 3px #0001;box-shadow:var(--tw-shadow)}",
      ".blur{--tw-blur:blur(8px);filter:var(--tw-blur,)}",
      "}",
      '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}',
      '@property --tw-border-style{syntax:"*";inherits:false;initial-value:solid}',
      '@property --tw-blur{syntax:"*";inherits:false}',
    ].join("");
    const css = cssForPage(sheet, '<div class="border shadow">');
    expect(css).toContain("::backdrop{--tw-shadow:0 0 #0000;--tw-border-style:solid}");
    expect(css).toContain("@property --tw-shadow{");
    expect(css).toContain("@property --tw-border-style{");
    expect(css).not.toContain("--tw-blur");
    const blurOnly = cssForPage(sheet, '<div class="blur">');
    expect(blurOnly).toContain("::backdrop{--tw-blur:initial}");
    expect(blurOnly).toContain('@property --tw-blur{syntax:"*";inherits:false}');
    expect(blurOnly).not.toContain("--tw-shadow");
    expect(blurOnly).not.toContain("--tw-border-style");
  });

  it("keeps the theme's variables that kept rules read, directly or through another", () => {
    const sheet = [
      "@layer theme{:root,:host{--color-red:red;--color-blue:blue;--font-sans:Inter, sans-serif;",
      "--default-font-family:var(--font-sans)}}",
      "@layer base{body{font-family:var(--default-font-family)}}",
      "@layer utilities{.text-red{color:var(--color-red)}.text-blue{color:var(--color-blue)}}",
    ].join("");
    const css = cssForPage(sheet, '<p class="text-red">');
    expect(css).toContain(
      "@layer theme{:root,:host{--color-red:red;--font-sans:Inter, sans-serif;--default-font-family:var(--font-sans)}}",
    );
    expect(css).not.toContain("--color-blue");
    expect(cssForPage(sheet, '<p class="text-blue">')).toContain("--color-blue:blue");
  });
});
