// The comparison page's address: /comparer?offres=slug-a,slug-b,slug-c (docs/decisions/017).

export const MAX_COMPARED = 3;
export const COMPARE_PATH = "/comparer";

const SLUG = /^[a-z0-9-]{1,200}$/;
// Enough for any real selection; a crafted query with thousands of values is not read further.
const MAX_VALUES_READ = 50;

export type ComparedSlugs = {
  /** Well-formed, distinct slugs in the order given, at most MAX_COMPARED. */
  slugs: string[];
  /** Distinct well-formed slugs beyond the first MAX_COMPARED, left out. */
  ignored: number;
};

/**
 * Reads `offres` as the page's links write it (comma-separated) or as the listing's form sends it
 * without JavaScript (one `offres` per checked box). Malformed values and repeats are dropped.
 */
export function parseComparedSlugs(params: URLSearchParams): ComparedSlugs {
  const values = params
    .getAll("offres")
    .flatMap((value) => value.split(","))
    .slice(0, MAX_VALUES_READ)
    .map((value) => value.trim().toLowerCase())
    .filter((value) => SLUG.test(value));
  const distinct = [...new Set(values)];
  return {
    slugs: distinct.slice(0, MAX_COMPARED),
    ignored: Math.max(0, distinct.length - MAX_COMPARED),
  };
}

/** The canonical address of a comparison ('/comparer' when there is nothing to compare). */
export function compareHref(slugs: readonly string[]): string {
  return slugs.length ? `${COMPARE_PATH}?offres=${slugs.join(",")}` : COMPARE_PATH;
}

/** The compare bar's line for n checked offers ('' when none). */
export function compareStatusText(n: number, max = MAX_COMPARED): string {
  if (n === 0) return "";
  const count = n === 1 ? "1 offre sélectionnée" : `${n} offres sélectionnées`;
  if (n < 2) return `${count} : cochez-en une autre pour comparer.`;
  return n >= max ? `${count} (${max} au plus).` : `${count}.`;
}

/** A selection kept in storage, as stored text; anything unreadable is an empty selection. */
export function readStoredSelection(text: string | null, max = MAX_COMPARED): string[] {
  try {
    const value: unknown = JSON.parse(text ?? "[]");
    if (!Array.isArray(value)) return [];
    return value.filter((s): s is string => typeof s === "string").slice(0, max);
  } catch {
    return [];
  }
}

/** The selection after a box is checked or unchecked; a box beyond the maximum is not taken. */
export function toggleSelection(
  selected: readonly string[],
  slug: string,
  checked: boolean,
  max = MAX_COMPARED,
): string[] {
  const without = selected.filter((s) => s !== slug);
  if (!checked) return without;
  return selected.includes(slug) || selected.length >= max ? [...selected] : [...selected, slug];
}
