// Maximum lengths, shared by the forms (maxLength) and the server-side validation.
export const CONTACT_LIMITS = { name: 100, email: 254, phone: 30, message: 5000 } as const;
