// A file's size as the team reads it: `512 o`, `12,3 ko`, `4,2 Mo` (binary multiples, as the
// file managers they use show them).

const UNITS = ["byte", "kilobyte", "megabyte", "gigabyte"] as const;

const formatters = UNITS.map(
  (unit) =>
    new Intl.NumberFormat("fr-FR", {
      style: "unit",
      unit,
      unitDisplay: "short",
      maximumFractionDigits: unit === "byte" ? 0 : 1,
    }),
);

export function formatFileSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let index = 0;
  while (value >= 1024 && index < UNITS.length - 1) {
    value /= 1024;
    index++;
  }
  return formatters[index].format(value);
}
