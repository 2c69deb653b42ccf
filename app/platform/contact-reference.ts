import { parisYear } from "~/lib/dates";

/**
 * A request's reference as the visitor and the team quote it: `DEM-2026-00042`, the year it was
 * sent (Paris time) and its number, at least five digits. Derived from the row, never stored.
 */
export function contactReference(id: number, createdAt: Date | string): string {
  return `DEM-${parisYear(createdAt)}-${String(id).padStart(5, "0")}`;
}

const REFERENCE = /^DEM-\d{4}-\d{5,10}$/;

/** The reference in a confirmation page's address, or null for anything else. */
export function parseContactReference(value: string | null): string | null {
  return value !== null && REFERENCE.test(value) ? value : null;
}
