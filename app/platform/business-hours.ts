import Holidays from "date-holidays";
import { parisDay, parisParts } from "~/lib/dates";

// Business hours in Europe/Paris (issue 40's first-response deadline): working days are Monday
// to Friday except France's public holidays, as the maintained date-holidays library gives them
// (the country's, not Alsace-Moselle's two more).

export type BusinessHours = { open: number; close: number };

const france = new Holidays("FR");
const holidaysByYear = new Map<number, ReadonlySet<string>>();

/** Whether a day ('2026-05-01') is a public holiday in France. */
export function isPublicHoliday(day: string): boolean {
  const year = Number(day.slice(0, 4));
  let days = holidaysByYear.get(year);
  if (!days) {
    const holidays = france.getHolidays(year) || [];
    days = new Set(holidays.filter((h) => h.type === "public").map((h) => h.date.slice(0, 10)));
    holidaysByYear.set(year, days);
  }
  return days.has(day);
}

function utcOfDay(day: string): number {
  const [y, m, d] = day.split("-").map(Number);
  return Date.UTC(y, m - 1, d);
}

/** The next calendar day. */
export function nextDay(day: string): string {
  return new Date(utcOfDay(day) + 86_400_000).toISOString().slice(0, 10);
}

/** A working day: Monday to Friday, not a public holiday. */
export function isBusinessDay(day: string): boolean {
  const weekday = new Date(utcOfDay(day)).getUTCDay();
  return weekday >= 1 && weekday <= 5 && !isPublicHoliday(day);
}

/** Paris's offset from UTC at an instant, in ms (to the minute). */
function parisOffset(ms: number): number {
  const p = parisParts(new Date(ms));
  const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute);
  return wall - Math.floor(ms / 60_000) * 60_000;
}

/** The instant at which the clocks of Paris show `minutes` after midnight of `day`. */
export function parisInstant(day: string, minutes: number): Date {
  const wall = utcOfDay(day) + minutes * 60_000;
  // Twice: the offset at the first guess may be the other side of a change of time.
  const guess = wall - parisOffset(wall);
  return new Date(wall - parisOffset(guess));
}

/** '09:00-18:00' → minutes after midnight, or undefined when malformed or empty. */
export function parseBusinessHours(value: string): BusinessHours | undefined {
  const match = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(value.trim());
  if (!match) return undefined;
  const [open, close] = [+match[1] * 60 + +match[2], +match[3] * 60 + +match[4]];
  if (+match[2] > 59 || +match[4] > 59 || close > 24 * 60 || open >= close) return undefined;
  return { open, close };
}

/** The instant `hours` business hours after `start`. */
export function addBusinessHours(start: Date, hours: number, business: BusinessHours): Date {
  let remaining = hours * 3_600_000;
  let cursor = start.getTime();
  let day = parisDay(start);
  // Bounded: a long weekend with holidays around it is a few days; a year is a safe ceiling.
  for (let i = 0; i < 366; i++) {
    if (isBusinessDay(day)) {
      const open = parisInstant(day, business.open).getTime();
      const close = parisInstant(day, business.close).getTime();
      const from = Math.max(cursor, open);
      if (from < close) {
        const taken = Math.min(remaining, close - from);
        remaining -= taken;
        if (remaining <= 0) return new Date(from + taken);
        cursor = close;
      }
    }
    day = nextDay(day);
  }
  return new Date(cursor);
}
