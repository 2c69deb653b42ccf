/** A search box's text: control characters become spaces, trimmed, cut to `max` characters. */
export function cleanSearchTerm(text: string, max: number): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, " ")
      .trim()
      .slice(0, max)
  );
}
