// What a form field may hold: maximum lengths, shared by the forms (maxLength) and the server-side
// validation, and the characters no field accepts.
export const CONTACT_LIMITS = { name: 100, email: 254, phone: 30, message: 5000 } as const;

// Offer fields: their limits are part of the field table (offer-fields.ts).
export { OFFER_LIMITS, OFFER_NUMBER_LIMITS } from "./offer-fields";

/** A datacenter's name (issue 21). */
export const DATACENTER_NAME_MAX = 60;

/** Administrator credentials: argon2 input is capped so a huge password cannot burn the CPU. */
export const AUTH_LIMITS = { email: 254, passwordMin: 12, passwordMax: 256 } as const;

/** Internal notes on a contact request: as long as a visitor's message at most. */
export const CONTACT_NOTE_MAX = 5000;

// Control characters have no place in a form field (NUL cannot even be stored); a multi-line
// message keeps tabs and line breaks.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
