// XML written by hand (sitemap, Atom feed): text and attribute values escaped here, once.

/**
 * What XML 1.0 cannot carry at all, even escaped: control characters other than tab, line feed
 * and carriage return, U+FFFE and U+FFFF, lone surrogates.
 */
/* eslint-disable no-control-regex -- the characters it removes */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */

/** Escapes the five XML special characters and drops what XML 1.0 cannot carry. */
export function xmlEscape(text: string): string {
  return text
    .replace(NOT_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** `<name attr="…">text</name>`, everything escaped; no text: an empty element. */
export function xmlElement(
  name: string,
  attributes: Record<string, string | undefined>,
  text?: string,
): string {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${xmlEscape(value)}"`)
    .join("");
  return text === undefined
    ? `<${name}${attrs}/>`
    : `<${name}${attrs}>${xmlEscape(text)}</${name}>`;
}
