import { addBusinessHours, parseBusinessHours } from "~/platform/business-hours";
import { now } from "~/platform/clock.server";
import { env } from "~/platform/env.server";

/**
 * When the first answer to a request made now is due (issue 40): FIRST_RESPONSE_HOURS business
 * hours later, in Europe/Paris with France's public holidays; null when no deadline is set.
 */
export function firstResponseDeadline(from: Date = now()): Date | null {
  const { FIRST_RESPONSE_HOURS, BUSINESS_HOURS } = env();
  const hours = parseBusinessHours(BUSINESS_HOURS);
  if (!FIRST_RESPONSE_HOURS || !hours) return null;
  return addBusinessHours(from, FIRST_RESPONSE_HOURS, hours);
}
