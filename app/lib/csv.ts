// CSV as a French spreadsheet opens it directly: UTF-8 with a BOM, ';' between cells, CRLF lines.
export const CSV_BOM = "\uFEFF";
export const CSV_SEPARATOR = ";";

/**
 * One cell. Text that a spreadsheet would read as a formula (=, +, -, @, or a leading tab or CR)
 * gets a leading apostrophe (CSV injection); quotes, separators and line breaks are quoted.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly (string | null | undefined)[]): string {
  return values.map(csvCell).join(CSV_SEPARATOR) + "\r\n";
}

const parisParts = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

function parts(date: Date) {
  return Object.fromEntries(parisParts.formatToParts(date).map((p) => [p.type, p.value]));
}

/** '23/11/2026 14:03' in Europe/Paris: a date and time a French spreadsheet recognises. */
export function spreadsheetDateTime(date: Date): string {
  const p = parts(date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** '2026-11-23': the day in Europe/Paris, for file names. */
export function parisDay(date: Date): string {
  const p = parts(date);
  return `${p.year}-${p.month}-${p.day}`;
}
