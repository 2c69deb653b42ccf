// Maximum lengths, shared by the forms (maxLength) and the server-side validation.
export const CONTACT_LIMITS = { name: 100, email: 254, phone: 30, message: 5000 } as const;

/** Largest request body accepted (form posts); larger ones answer 413 before any parsing. */
export const MAX_BODY_BYTES = 256 * 1024;
