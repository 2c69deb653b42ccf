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
