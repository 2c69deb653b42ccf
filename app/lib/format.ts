// One formatter per kind (dates here, money in money.ts), same output on server and client (fixed locale and time zone).
const TIME_ZONE = "Europe/Paris";

// Amounts are formatted by money.ts (one euro formatter, one "/mois").

const dateParts = new Intl.DateTimeFormat("fr-FR", {
  timeZone: TIME_ZONE,
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** '5 janv. 2026 à 14:03', in Europe/Paris whatever the machine's zone. */
export function formatDateTime(value: Date | string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  const parts = Object.fromEntries(dateParts.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.day} ${parts.month} ${parts.year} à ${parts.hour}:${parts.minute}`;
}

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
