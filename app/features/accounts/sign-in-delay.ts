/** Failures of one account (from any address, per window) answered without delay. */
export const FREE_ACCOUNT_FAILURES = 5;
/** The longest an account's sign-in is slowed down: its owner still gets in. */
export const MAX_SIGN_IN_DELAY_MS = 8_000;

/**
 * How long a sign-in to an account with `failures` recent failures waits before its password is
 * checked: nothing for the first few, then 1 s doubling to 8 s. Slowing down rather than refusing
 * keeps the owner's right password working while someone guesses from elsewhere.
 */
export function signInDelayMs(failures: number): number {
  if (failures < FREE_ACCOUNT_FAILURES) return 0;
  return Math.min(MAX_SIGN_IN_DELAY_MS, 1000 * 2 ** (failures - FREE_ACCOUNT_FAILURES));
}
