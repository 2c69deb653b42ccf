// The contact form's answers to a post (app/routes/public/contact.tsx): one mapping from the
// outcome to its status, headers and what the page shows again around the typed values.
import { data, redirect } from "react-router";
import { z } from "zod";
import { firstFieldError, type FieldErrors } from "~/lib/field-errors";
import { MESSAGES, retryInMinutes } from "~/lib/messages";
import { CONFIGURATION_MAX, type ConfigurationSnapshot } from "~/lib/offer-options";
import { retryAfter, UNAVAILABLE_RETRY_SECONDS } from "~/lib/http-headers";
import type { ContactSubmission } from "~/features/desk/contacts.server";
import { configurationSnapshot } from "~/features/desk/contact-configuration.server";
import { postedOfferChoice } from "~/features/desk/contact-offers.server";
import type { OfferChoice } from "~/features/offers/offer-choices.server";
import type { ActionFailure } from "~/platform/form.server";
import { countRefusal } from "~/platform/metrics.server";

/** The confirmation page, with the request's reference to quote (not personal data). */
export const sentPath = (reference: string) =>
  `/contact/merci?ref=${encodeURIComponent(reference)}`;

/** A configuration's query (o0=1&o2=4): short and plain, anything else reads as none. */
export const configurationParam = z
  .string()
  .max(CONFIGURATION_MAX)
  .regex(/^[a-z0-9=&]*$/)
  .catch("");

export type Values = {
  name: string;
  email: string;
  phone: string;
  company: string;
  siren: string;
  message: string;
  offer: string;
  submission: string;
};
/**
 * A refused post: the one ActionFailure shape, whose values are everything typed (the token too),
 * plus what the page shows again around them (the offer and its configuration, loader data that
 * the address no longer carries).
 */
export type ContactFailure = ActionFailure<keyof Values, Values> & {
  offerChoice?: OfferChoice;
  configuration: ConfigurationSnapshot | null;
  configurationQuery: string;
};

/**
 * The configuration posted with a refused form, shown again (the page is then rendered for
 * /contact, whose address no longer carries it); kept as posted when it cannot be read now.
 */
async function postedConfiguration(offer: string, query: string) {
  if (!query || !/^[1-9]\d{0,9}$/.test(offer) || Number(offer) > 2_147_483_647) return null;
  try {
    return await configurationSnapshot(Number(offer), query);
  } catch {
    return null;
  }
}

/** The one mapping from a post's outcome to status, headers and what the page shows again. */
export async function answer(
  result:
    | ContactSubmission
    | { kind: "invalid"; fieldErrors: FieldErrors<keyof Values> }
    | { kind: "expired" },
  values: Values,
  configurationQuery: string,
) {
  // Post/redirect/get: the confirmation is a page of its own, which a reload cannot send again.
  if (result.kind === "sent") throw redirect(sentPath(result.reference), 303);
  const [offerChoice, configuration] = await Promise.all([
    postedOfferChoice(values.offer),
    postedConfiguration(values.offer, configurationQuery),
  ]);
  const kept = { values, offerChoice, configuration, configurationQuery };
  // A public page: no private headers; Retry-After when the visitor should come back later.
  const refuse = (status: number, failure: ContactFailure, headers?: HeadersInit) =>
    data(failure, { status, headers });
  if (result.kind === "rate-limited") {
    countRefusal("contact");
    const { retryAfterSeconds } = result;
    return refuse(
      429,
      {
        error: "Trop de messages envoyés",
        description: `Vous avez envoyé plusieurs messages en peu de temps. ${retryInMinutes(retryAfterSeconds)}`,
        ...kept,
      },
      retryAfter(retryAfterSeconds),
    );
  }
  if (result.kind === "expired") {
    const { title, description } = MESSAGES.contactExpired;
    return refuse(400, { error: title, description, ...kept });
  }
  if (result.kind === "invalid") {
    const { fieldErrors } = result;
    const missing = (["name", "email", "message"] as const).some((k) => !values[k].trim());
    const { title, description } = missing
      ? MESSAGES.contactMissing
      : {
          title: "Formulaire invalide",
          description: firstFieldError(fieldErrors, MESSAGES.contactMissing.description),
        };
    return refuse(400, { error: title, description, fieldErrors, ...kept });
  }
  // 503: the database is unreachable; the page keeps what was typed and says when to retry.
  const { title, description } = MESSAGES.contactFailed;
  return refuse(503, { error: title, description, ...kept }, retryAfter(UNAVAILABLE_RETRY_SECONDS));
}
