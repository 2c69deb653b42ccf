import { retryInMinutes } from "./messages";
// Spec section 8, administrator side: toasts word for word, plus our own where the spec is silent.
export type ToastType = "success" | "error" | "info";
export type ToastMessage = { title: string; description?: string; type: ToastType };
/** A flash message as the root loader hands it to the page (id: shown once per id). */
export type FlashToast = ToastMessage & { id: string };

/** Messages carried to the next page by the flash cookie, by key (the cookie never holds text). */
export const FLASH_MESSAGES = {
  signedIn: {
    title: "Connexion réussie",
    description: "Bienvenue dans l'espace administrateur",
    type: "success",
  },
  signedOut: { title: "Déconnexion réussie", description: "À bientôt !", type: "success" },
  offerCreated: {
    title: "Offre créée",
    description: "L'offre a été créée avec succès",
    type: "success",
  },
  offerUpdated: {
    title: "Offre mise à jour",
    description: "L'offre a été mise à jour avec succès",
    type: "success",
  },
  offerDeleted: {
    title: "Offre supprimée",
    description: "L'offre a été supprimée avec succès",
    type: "success",
  },
  offerActivated: {
    title: "Offre activée",
    description: "L'offre est visible sur le site",
    type: "success",
  },
  offerDeactivated: {
    title: "Offre désactivée",
    description: "L'offre n'est plus visible sur le site",
    type: "success",
  },
  adminAdded: {
    title: "Administrateur ajouté",
    description: "Il peut se connecter avec le mot de passe initial",
    type: "success",
  },
  adminRemoved: {
    title: "Administrateur supprimé",
    description: "Ses sessions ont été fermées",
    type: "success",
  },
  roleChanged: {
    title: "Rôle modifié",
    description: "Il s'applique dès sa prochaine page",
    type: "success",
  },
  secondFactorReset: {
    title: "Double authentification réinitialisée",
    description: "Ses sessions ont été fermées ; il l'activera à nouveau",
    type: "success",
  },
  sessionRevoked: { title: "Session révoquée", type: "success" },
  passwordReset: {
    title: "Mot de passe modifié",
    description:
      "Toutes vos sessions ont été fermées : connectez-vous avec le nouveau mot de passe.",
    type: "success",
  },
  passwordChanged: {
    title: "Mot de passe modifié",
    description: "Vos autres sessions ont été déconnectées",
    type: "success",
  },
  statusUpdated: {
    title: "Statut mis à jour",
    description: "Le statut de la demande a été mis à jour",
    type: "success",
  },
  personalDataErased: {
    title: "Données effacées",
    description: "Toutes les données de cette adresse e-mail ont été effacées.",
    type: "success",
  },
  noteAdded: { title: "Note ajoutée", type: "success" },
  bulkDone: {
    title: "Demandes mises à jour",
    description: "La modification a été appliquée aux demandes cochées",
    type: "success",
  },
  ownerUpdated: {
    title: "Attribution mise à jour",
    description: "Le responsable de la demande a été mis à jour",
    type: "success",
  },
  datacenterAdded: { title: "Datacenter ajouté", type: "success" },
  leaseScaleSaved: { title: "Barème LOA enregistré", type: "success" },
  datacenterRemoved: {
    title: "Datacenter supprimé",
    description: "Les offres qui l'indiquaient n'ont plus de datacenter.",
    type: "success",
  },
  notSpam: {
    title: "Demande rétablie",
    description: "La demande rejoint la liste et l'équipe commerciale en est notifiée.",
    type: "success",
  },
  webhookDeleted: { title: "Webhook supprimé", type: "success" },
  mailRetried: {
    title: "E-mail remis en file d'envoi",
    description: "Il partira dans quelques instants.",
    type: "success",
  },
  webhookResent: {
    title: "Envoi relancé",
    description: "La livraison repart dans quelques secondes.",
    type: "success",
  },
} as const satisfies Record<string, ToastMessage>;

export type FlashKey = keyof typeof FLASH_MESSAGES;

export function isFlashKey(value: string): value is FlashKey {
  return Object.prototype.hasOwnProperty.call(FLASH_MESSAGES, value);
}

export const ADMIN_MESSAGES = {
  signInFailed: "Erreur de connexion",
  wrongCredentials: "Email ou mot de passe incorrect.",
  missingCredentials: "Veuillez saisir votre email et votre mot de passe.",
  unexpected: { title: "Erreur", description: "Une erreur inattendue s'est produite" },
  tooManyAttempts: (retryAfterSeconds: number) =>
    `Trop de tentatives de connexion. ${retryInMinutes(retryAfterSeconds)}`,
  signOutFailed: "Erreur lors de la déconnexion",
  offerMissingFields: "Veuillez remplir tous les champs obligatoires",
  offerInvalid: "Formulaire invalide",
  offerCreateFailed: "Erreur lors de la création de l'offre",
  offerUpdateFailed: "Erreur lors de la mise à jour de l'offre",
  offerDeleteFailed: "Erreur lors de la suppression de l'offre",
  offerGone: "Cette offre n'existe plus.",
  deleteConfirm: "Êtes-vous sûr de vouloir supprimer cette offre ?",
  offersEmpty: "Aucune offre créée pour le moment",
  offerToggleFailed: "Erreur lors de la mise à jour de l'offre",
  offersNoMatch: "Aucune offre ne correspond à vos critères de recherche.",
  statusFailed: "Erreur lors de la mise à jour du statut",
  noteFailed: "Erreur lors de l'ajout de la note",
  assignFailed: "Erreur lors de l'attribution",
  bulkFailed: "Erreur lors de la modification groupée",
  notSpamFailed: "Erreur lors du rétablissement de la demande",
  contactsEmpty: "Aucune demande de contact trouvée",
  offerDeletedLabel: "Offre supprimée",
  unauthorized: "Votre session a expiré ou vous n'êtes pas connecté.",
  signInExpired: "La connexion a expiré : saisissez à nouveau votre mot de passe.",
  reauthRefused: "Mot de passe ou code incorrect.",
  setupFirst: "Activez d'abord la double authentification de votre compte.",
  forbidden: "Votre rôle ne permet pas d'ouvrir cette page ni de faire cette action.",
} as const;
