// The buyer's company on the contact form (issue 29): its SIREN, checked with its Luhn key, and
// the intra-community VAT number computed from it. Pure: shared by the form's schema and the views.

/** The SIREN as typed, spaces (and non-breaking spaces) removed. */
export function compactSiren(value: string): string {
  return value.replace(/[\s\u00a0\u202f]/g, "");
}

/** Luhn's check on a string of digits. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A SIREN: 9 digits whose Luhn key is right (spaces already removed). */
export function isValidSiren(siren: string): boolean {
  return /^\d{9}$/.test(siren) && luhnValid(siren);
}

/** The French VAT number of a SIREN: `FR`, its key (12 + 3 × (SIREN mod 97)) mod 97, the SIREN. */
export function vatNumberOf(siren: string): string {
  const key = (12 + 3 * (Number(siren) % 97)) % 97;
  return `FR${String(key).padStart(2, "0")}${siren}`;
}

/** `123 456 782`: how a SIREN reads. */
export function formatSiren(siren: string): string {
  return siren.replace(/^(\d{3})(\d{3})(\d{3})$/, "$1 $2 $3");
}

export const SIREN_MESSAGES = {
  invalid: "Le SIREN doit comporter 9 chiffres et sa clé de contrôle doit être valide.",
  requiredForLease:
    "Le SIREN est obligatoire pour une location LOA : elle est réservée aux professionnels.",
} as const;

export const COMPANY_MAX = 200;

/** The buyer's company as one line: `ACME — SIREN 732 829 320 — N° TVA FR44732829320`; null without. */
export function companyLine(company: string | null, siren: string | null): string | null {
  const parts = [
    company,
    siren ? `SIREN ${formatSiren(siren)}` : null,
    siren ? `N° TVA ${vatNumberOf(siren)}` : null,
  ].filter((part): part is string => Boolean(part));
  return parts.length ? parts.join(" — ") : null;
}
