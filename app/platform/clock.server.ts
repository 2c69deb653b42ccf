// The one clock of the follow-ups (issue 40): the first-response deadline, the late notices, the
// morning digest, the quote opened and the quote expiring all read it, so a test moves time here
// instead of waiting. Production never sets it.

let fixed: Date | undefined;

/** Now, or the time a test set. */
export function now(): Date {
  return fixed ? new Date(fixed) : new Date();
}

/** Sets the time every follow-up reads (tests only); undefined gives back the real time. */
export function setClock(at: Date | undefined): void {
  fixed = at ? new Date(at) : undefined;
}
