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

export const CONTACT_STATUSES = [
  "pending",
  "in_progress",
  "completed",
  "cancelled",
  "quote_sent",
  "accepted",
  "declined",
  // Issue 41: an accepted LOA quote's file, until the server is delivered.
  "file_incomplete",
  "file_complete",
  "file_sent",
  "financer_approved",
  "financer_refused",
  "delivered",
] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/**
 * Each status as the admin shows it: its label, its badge's variant and its colour in the
 * dashboard's chart. A new status is a line here (and a generated migration of the enum).
 */
export const CONTACT_STATUS_LOOKS = {
  pending: { label: "En attente", badge: "secondary", fill: "fill-muted-foreground" },
  in_progress: { label: "En cours", badge: "default", fill: "fill-primary" },
  completed: { label: "Terminé", badge: "success", fill: "fill-success" },
  cancelled: { label: "Annulé", badge: "outline", fill: "fill-destructive" },
  // Issue 29: the quote mailed from the request's page, and the buyer's answer on its page.
  quote_sent: { label: "Devis envoyé", badge: "default", fill: "fill-primary/60" },
  accepted: { label: "Accepté", badge: "success", fill: "fill-success/60" },
  declined: { label: "Refusé", badge: "outline", fill: "fill-destructive/60" },
  // Issue 41: the LOA file after the quote's acceptance, then the financer, then the delivery.
  file_incomplete: {
    label: "Dossier incomplet",
    badge: "secondary",
    fill: "fill-muted-foreground/60",
  },
  file_complete: { label: "Dossier complet", badge: "default", fill: "fill-primary/80" },
  file_sent: { label: "Transmis au financeur", badge: "default", fill: "fill-primary/40" },
  financer_approved: { label: "Accord du financeur", badge: "success", fill: "fill-success/80" },
  financer_refused: { label: "Refus du financeur", badge: "outline", fill: "fill-destructive/80" },
  delivered: { label: "Livré", badge: "success", fill: "fill-success/40" },
} as const satisfies Record<
  ContactStatus,
  { label: string; badge: "secondary" | "default" | "success" | "outline"; fill: string }
>;

export const CONTACT_STATUS_LABELS = Object.fromEntries(
  CONTACT_STATUSES.map((status) => [status, CONTACT_STATUS_LOOKS[status].label]),
) as Record<ContactStatus, string>;
