/**
 * Spec section 5: lowercase; drop characters other than word characters, spaces and hyphens;
 * whitespace to hyphens; repeated hyphens collapsed. Accents are folded to ASCII first
 * ('Épique' gives 'epique'), and leading or trailing hyphens are trimmed.
 */
export function slugify(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/œ/gi, "oe")
    .replace(/æ/gi, "ae")
    .replace(/ß/g, "ss")
    .toLowerCase()
    .replace(/[^\w\s-]/g, "")
    .replace(/_/g, "-")
    .trim()
    .replace(/\s+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The n-th candidate for a slug: the base, then base-1, base-2... (spec: counter starts at 1). */
export function slugCandidate(base: string, attempt: number): string {
  return attempt === 0 ? base : `${base}-${attempt}`;
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
