// One formatter per kind, same output on server and client (fixed locale; dates in ./dates,
// amounts in ./money: one euro formatter, one "/mois").

export { formatDateTime } from "./dates";

/** ISO date (YYYY-MM-DD) for sitemaps and machine-readable attributes. */
export function isoDate(value: Date | string): string {
  return (typeof value === "string" ? new Date(value) : value).toISOString();
}

export function pluralize(count: number, singular: string, plural: string): string {
  return count > 1 ? plural : singular;
}

/** 'N offre(s) trouvée(s)' as the spec words it, pluralised above 1. */
export function offerCountLabel(count: number): string {
  return `${count} ${pluralize(count, "offre trouvée", "offres trouvées")}`;
}
