/** First retry after 10 s, then doubling. */
const FIRST_RETRY_SECONDS = 10;

/** Seconds before the next attempt after `attempts` failed ones: 10, 20, 40... capped. */
export function retryDelaySeconds(attempts: number, maxSeconds: number): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(maxSeconds, FIRST_RETRY_SECONDS * 2 ** exponent);
}

/** A mail still unsent this long after it was queued is marked failed (issue 10). */
export const MAIL_GIVE_UP_SECONDS = 3 * 24 * 3600;
