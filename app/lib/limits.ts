// Maximum lengths, shared by the forms (maxLength) and the server-side validation.
export const CONTACT_LIMITS = { name: 100, email: 254, phone: 30, message: 5000 } as const;

/** Offer fields (admin form). Prices are numeric(10,2) in the database; the cap stays well below. */
export const OFFER_LIMITS = {
  title: 150,
  reference: 60,
  slug: 100,
  description: 20_000,
  cpu: 150,
  ram: 150,
  storage: 150,
  network: 150,
  contractType: 150,
  metaTitle: 120,
  metaDescription: 320,
  priceMax: 1_000_000,
} as const;

/**
 * Bounds of the optional numbers beside the displayed text (issue 13): wide enough for any real
 * server, narrow enough to catch a typo (64000 typed for 64). Amounts share priceMax.
 */
export const OFFER_NUMBER_LIMITS = {
  cpuCores: { min: 1, max: 4096 },
  ramGb: { min: 1, max: 65_536 },
  storageTb: { min: 0.01, max: 100_000 },
  bandwidthGbps: { min: 0.01, max: 10_000 },
  loaMonths: { min: 1, max: 120 },
} as const;

/** Administrator credentials: argon2 input is capped so a huge password cannot burn the CPU. */
export const AUTH_LIMITS = { email: 254, passwordMin: 12, passwordMax: 256 } as const;

/** Internal notes on a contact request: as long as a visitor's message at most. */
export const CONTACT_NOTE_MAX = 5000;
