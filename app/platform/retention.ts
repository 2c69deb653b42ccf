// How long personal data is kept (issue 12), worded for the privacy page and the purge's output.

/** Suspected spam (a filled honeypot) is kept this long after its last activity (issue 10). */
export const SPAM_RETENTION_DAYS = 30;

function years(count: number): string {
  return `${count} ${count > 1 ? "ans" : "an"}`;
}

/** '36 mois (3 ans)', '18 mois (1 an et 6 mois)', '6 mois'. */
export function retentionLabel(months: number): string {
  if (months < 12) return `${months} mois`;
  const whole = Math.floor(months / 12);
  const rest = months % 12;
  return `${months} mois (${years(whole)}${rest ? ` et ${rest} mois` : ""})`;
}

/** A message read from the mailbox that no one attached to a request is deleted after this. */
export const UNATTACHED_RETENTION_DAYS = 90;
