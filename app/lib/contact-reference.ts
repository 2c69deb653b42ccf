const PARIS_YEAR = new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", year: "numeric" });

/**
 * A request's reference as the visitor and the team quote it: `DEM-2026-00042`, the year it was
 * sent (Paris time) and its number, at least five digits. Derived from the row, never stored.
 */
export function contactReference(id: number, createdAt: Date | string): string {
  const year = PARIS_YEAR.format(new Date(createdAt));
  return `DEM-${year}-${String(id).padStart(5, "0")}`;
}
