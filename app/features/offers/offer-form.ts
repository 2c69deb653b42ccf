import {
  OFFER_FIELD_NAMES,
  OFFER_FIELDS,
  OFFER_FORM_DEFAULTS,
  OFFER_NUMBER_FIELDS,
  type OfferField,
  type OfferFormValues,
  type OfferNumberField,
} from "~/lib/offer-fields";
import { optionLines, type OptionGroup } from "~/lib/offer-options";

// The form's values, shared by the view and the server, derived from the field table
// (offer-fields.ts). Validation lives in offer-form-schema.ts (server side), which keeps zod out
// of the browser bundle.

export { OFFER_FORM_DEFAULTS, OFFER_NUMBER_FIELDS };
export type { OfferField, OfferFormValues };

/** Every optional number set to `value` (a reload of the demo or a test that clears them). */
export function allOfferNumbers<V>(value: V): Record<OfferNumberField, V> {
  return Object.fromEntries(OFFER_NUMBER_FIELDS.map((field) => [field, value])) as Record<
    OfferNumberField,
    V
  >;
}

/** Reads the posted form: missing text is '', a checkbox is true when sent at all. */
export function offerFormValues(form: FormData): OfferFormValues {
  const values: Record<string, string | boolean> = {};
  for (const field of OFFER_FIELD_NAMES) {
    const value = form.get(field);
    values[field] =
      OFFER_FIELDS[field].kind === "boolean"
        ? value !== null
        : typeof value === "string"
          ? value
          : "";
  }
  return values as OfferFormValues;
}

/** An offer as stored (a full row fits): each field's column, null for an empty optional one. */
export type OfferLike = {
  [F in OfferField]: string | number | boolean | OptionGroup[] | number[] | null;
};

/** The editor's values for a stored offer: null is an empty input. */
export function offerToFormValues(offer: OfferLike): OfferFormValues {
  const values: Record<string, string | boolean> = {};
  for (const field of OFFER_FIELD_NAMES) {
    const value = offer[field];
    const { kind } = OFFER_FIELDS[field];
    values[field] =
      kind === "boolean"
        ? Boolean(value)
        : kind === "options"
          ? optionLines(value as OptionGroup[] | null)
          : Array.isArray(value)
            ? value.join(", ")
            : value === null
              ? ""
              : String(value);
  }
  return values as OfferFormValues;
}
