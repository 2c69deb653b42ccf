// Allowed values, defined once and shared by the schema, validation and labels.
export const OFFER_TYPES = ["dedicated", "loa"] as const;
export type OfferType = (typeof OFFER_TYPES)[number];

export const OFFER_TYPE_LABELS: Record<OfferType, string> = {
  dedicated: "Serveur Dédié",
  loa: "Location LOA",
};

export const OFFER_TYPE_BADGES: Record<OfferType, string> = {
  dedicated: "Dédié",
  loa: "LOA",
};

export const CONTACT_STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const CONTACT_STATUS_LABELS: Record<ContactStatus, string> = {
  pending: "En attente",
  in_progress: "En cours",
  completed: "Terminé",
  cancelled: "Annulé",
};
