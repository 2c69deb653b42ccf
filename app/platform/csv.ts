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

export { parisDay, spreadsheetDateTime } from "~/lib/dates";
