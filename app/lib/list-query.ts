// The list views' addresses (offers, admin offers, contact requests, journal), built and read one
// way. No zod here: the listing's script and the admin bundle import it.

type QueryValue = string | number | false | null | undefined;

/**
 * A list view's canonical query string from its parameters in order: empty values, `false` and
 * page 1 are left out ('' for the default view), so that one view has one address.
 */
export function listSearch(params: [key: string, value: QueryValue][]): string {
  const search = new URLSearchParams();
  for (const [key, value] of params) {
    if (value === undefined || value === null || value === false || value === "") continue;
    if (key === "page" && Number(value) <= 1) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** The first value of each of `keys`, as a GET form sends it; missing and empty ones left out. */
export function queryFields<K extends string>(
  params: URLSearchParams,
  keys: readonly K[],
): Partial<Record<K, string>> {
  const fields: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value) fields[key] = value;
  }
  return fields;
}

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
