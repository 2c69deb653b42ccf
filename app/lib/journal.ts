// The admin journal's actions (issue 20), as stored and as shown (`Journal`, its CSV).

export const JOURNAL_ACTIONS = {
  "sign-in": "Connexion",
  "sign-in-failed": "Connexion refusée",
  "code-refused": "Code refusé",
  "second-factor-alert": "Alerte envoyée : codes refusés après le bon mot de passe",
  "sign-out": "Déconnexion",
  "password-changed": "Mot de passe modifié",
  "password-reset-requested": "Réinitialisation du mot de passe demandée",
  "password-reset": "Mot de passe réinitialisé",
  "second-factor-enabled": "Double authentification activée",
  "second-factor-reset": "Double authentification réinitialisée",
  "session-revoked": "Session révoquée",
  "identity-confirmed": "Identité confirmée",
  "user-added": "Compte ajouté",
  "user-removed": "Compte supprimé",
  "role-changed": "Rôle modifié",
  "offer-created": "Offre créée",
  "offer-updated": "Offre modifiée",
  "offer-deleted": "Offre supprimée",
  "offer-shown": "Offre activée",
  "offer-hidden": "Offre désactivée",
  "datacenter-added": "Datacenter ajouté",
  "datacenter-removed": "Datacenter supprimé",
  "lease-scale-changed": "Barème LOA modifié",
  "status-changed": "Statut modifié",
  "note-added": "Note ajoutée",
  "reply-sent": "Message écrit au client",
  "message-attached": "Message reçu rattaché à une demande",
  "message-discarded": "Message reçu non rattaché supprimé",
  "spam-released": "Spam rétabli",
  "owner-changed": "Demande attribuée",
  "bulk-changed": "Action groupée sur des demandes",
  "webhook-added": "Webhook ajouté",
  "webhook-removed": "Webhook supprimé",
  "webhook-resent": "Webhook renvoyé",
  "contacts-exported": "Demandes exportées",
  "quote-exported": "Devis téléchargé",
  "signed-document-exported": "Document signé téléchargé",
  "quote-sent": "Devis envoyé",
  "quote-accepted": "Devis accepté (bon pour accord en ligne)",
  "quote-declined": "Devis refusé en ligne",
  "journal-exported": "Journal exporté",
  "personal-data-viewed": "Données personnelles consultées",
  "personal-data-exported": "Données personnelles exportées",
  "personal-data-erased": "Données personnelles effacées",
  "mail-retried": "E-mail relancé",
} as const;

export type JournalAction = keyof typeof JOURNAL_ACTIONS;

export const JOURNAL_ACTION_KEYS = Object.keys(JOURNAL_ACTIONS) as [
  JournalAction,
  ...JournalAction[],
];

export const JOURNAL_PAGE_SIZE = 50;
