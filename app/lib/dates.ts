// Every date a person reads is in Europe/Paris, whatever the machine's zone, and identical on
// server and client: one formatter gives the parts, the functions below only arrange them.
export const TIME_ZONE = "Europe/Paris";

const numericParts = new Intl.DateTimeFormat("fr-FR", {
  timeZone: TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const monthName = new Intl.DateTimeFormat("fr-FR", { timeZone: TIME_ZONE, month: "short" });

type ParisParts = { day: string; month: string; year: string; hour: string; minute: string };

function toDate(value: Date | string): Date {
  return typeof value === "string" ? new Date(value) : value;
}

/** Day, month, year (zero-padded), hour and minute (24 h) in Paris. */
export function parisParts(value: Date | string): ParisParts {
  const parts = Object.fromEntries(
    numericParts.formatToParts(toDate(value)).map((p) => [p.type, p.value]),
  );
  return parts as ParisParts;
}

/** '5 janv. 2026 à 14:03' */
export function formatDateTime(value: Date | string): string {
  const date = toDate(value);
  const p = parisParts(date);
  return `${Number(p.day)} ${monthName.format(date)} ${p.year} à ${p.hour}:${p.minute}`;
}

/** '23/11/2026 14:03': a date and time a French spreadsheet recognises. */
export function spreadsheetDateTime(value: Date | string): string {
  const p = parisParts(value);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** '2026-11-23': the day in Paris, for file names. */
export function parisDay(value: Date | string): string {
  const p = parisParts(value);
  return `${p.year}-${p.month}-${p.day}`;
}

/** '2026': the year in Paris (a New Year's Eve in UTC is already the next year in Paris). */
export function parisYear(value: Date | string): string {
  return parisParts(value).year;
}

let yearOfHour: { hour: number; year: number } | undefined;

/** This year in Paris, worked out once an hour: Paris changes year on the hour (UTC). */
export function currentParisYear(now = Date.now()): number {
  const hour = Math.floor(now / 3_600_000);
  if (yearOfHour?.hour !== hour) yearOfHour = { hour, year: Number(parisYear(new Date(now))) };
  return yearOfHour.year;
}

const longDate = new Intl.DateTimeFormat("fr-FR", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/**
 * '25 novembre 2026': the day in Paris, `days` calendar days later (a quote's end of validity).
 * The Paris day is counted on as a calendar date, so that a change of summer time moves nothing.
 */
export function formatParisDay(value: Date | string, days = 0): string {
  const p = parisParts(value);
  return longDate.format(
    new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day) + days)),
  );
}
