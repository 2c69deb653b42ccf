import { OFFER_TYPE_LABELS, OFFER_TYPES } from "~/lib/domain";

/** The offer types as the options of a select, in the catalogue's order. */
export function OfferTypeOptions() {
  return OFFER_TYPES.map((type) => (
    <option key={type} value={type}>
      {OFFER_TYPE_LABELS[type]}
    </option>
  ));
}
