// XML written by hand (sitemap, Atom feed): text and attribute values escaped here, once.

/** Escapes the five XML special characters and drops what XML 1.0 cannot carry at all. */
export function xmlEscape(text: string): string {
  return (
    text
      // Control characters other than tab, line feed and carriage return are not allowed in XML
      // 1.0, even escaped; lone surrogates neither.
      // eslint-disable-next-line no-control-regex
      .replace(
        /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
        "",
      )
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
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
