/** Geometry of the dashboard's server-rendered SVG charts (issue 22): no chart library, no JS. */

/** Weeks the dashboard's charts cover, this one included. */
export const CHART_WEEKS = 12;
/** Days and offers of 'Offres les plus demandées'. */
export const TOP_OFFER_DAYS = 30;
export const TOP_OFFERS = 10;
/** Days of 'Taux d'acceptation' (the quotes sent in that many days). */
export const QUOTE_RATE_DAYS = 90;

/** The axis' top: the smallest 1, 2 or 5 × 10ⁿ at or above `value` (1 for an empty chart). */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const exponent = Math.floor(Math.log10(value));
  // Read from its decimal writing: `10 ** -5` is not the same double in Node and in every browser,
  // and the axis's label would then differ between the server and the page (hydration).
  for (const step of [1, 2, 5, 10]) {
    const nice = Number(`${step}e${exponent}`);
    if (nice >= value) return nice;
  }
  return Number(`1e${exponent + 1}`);
}

/** `count` bars across `width`: each bar's x and width, with a gap of a quarter of a slot. */
export function bandLayout(count: number, width: number): { x: number; width: number }[] {
  const slot = width / Math.max(1, count);
  return Array.from({ length: count }, (_, i) => ({
    x: i * slot + slot / 8,
    width: (slot * 3) / 4,
  }));
}

/** A value's height on an axis of `max` drawn `height` high. */
export function scaled(value: number, max: number, height: number): number {
  return max > 0 ? (Math.max(0, value) / max) * height : 0;
}

/** A week's Monday `YYYY-MM-DD` as the axis shows it: `DD/MM`. */
export function weekLabel(week: string): string {
  const [, month, day] = week.split("-");
  return `${day}/${month}`;
}

/** Hours as the table says them: `3 h 20`, `2 j 4 h`, or `—` without an answer. */
export function formatHours(hours: number | null): string {
  if (hours === null) return "—";
  const minutes = Math.round(hours * 60);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) {
    const rest = minutes % 60;
    return `${Math.floor(minutes / 60)} h${rest ? ` ${String(rest).padStart(2, "0")}` : ""}`;
  }
  const wholeHours = Math.round(hours);
  return `${Math.floor(wholeHours / 24)} j${wholeHours % 24 ? ` ${wholeHours % 24} h` : ""}`;
}
