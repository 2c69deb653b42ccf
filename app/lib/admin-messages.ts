import { retryInMinutes } from "./messages";
// Spec section 8, administrator side: toasts word for word, plus our own where the spec is silent.
export type ToastType = "success" | "error" | "info";
export type ToastMessage = { title: string; description?: string; type: ToastType };
/** A flash message as the root loader hands it to the page (id: shown once per id). */
export type FlashToast = ToastMessage & { id: string };

/** A flash message: every one says that something was done. */
const done = (title: string, description?: string) =>
  ({ type: "success", title, description }) as const satisfies ToastMessage;

/** Messages carried to the next page by the flash cookie, by key (the cookie never holds text). */
export const FLASH_MESSAGES = {
  signedIn: done("Connexion réussie", "Bienvenue dans l'espace administrateur"),
  signedOut: done("Déconnexion réussie", "À bientôt !"),
  offerCreated: done("Offre créée", "L'offre a été créée avec succès"),
  offerUpdated: done("Offre mise à jour", "L'offre a été mise à jour avec succès"),
  offerDeleted: done("Offre supprimée", "L'offre a été supprimée avec succès"),
  offerActivated: done("Offre activée", "L'offre est visible sur le site"),
  offerDeactivated: done("Offre désactivée", "L'offre n'est plus visible sur le site"),
  adminAdded: done("Administrateur ajouté", "Il peut se connecter avec le mot de passe initial"),
  adminRemoved: done("Administrateur supprimé", "Ses sessions ont été fermées"),
  roleChanged: done("Rôle modifié", "Il s'applique dès sa prochaine page"),
  secondFactorReset: done(
    "Double authentification réinitialisée",
    "Ses sessions ont été fermées ; il l'activera à nouveau",
  ),
  sessionRevoked: done("Session révoquée"),
  passwordReset: done(
    "Mot de passe modifié",
    "Toutes vos sessions ont été fermées : connectez-vous avec le nouveau mot de passe.",
  ),
  passwordChanged: done("Mot de passe modifié", "Vos autres sessions ont été déconnectées"),
  statusUpdated: done("Statut mis à jour", "Le statut de la demande a été mis à jour"),
  personalDataErased: done(
    "Données effacées",
    "Toutes les données de cette adresse e-mail ont été effacées.",
  ),
  personalDataErasedSignedKept: done(
    "Données effacées, devis signés conservés",
    "Les devis signés restent conservés pour leur durée légale (documents commerciaux) : ils sont listés ci-dessous.",
  ),
  noteAdded: done("Note ajoutée"),
  followUpSet: done("Relance enregistrée", "Elle figure dans Mes relances le jour venu"),
  followUpCleared: done("Relance retirée"),
  leaseDocumentRefused: done(
    "Document refusé",
    "Le client voit le motif sur sa page et peut en envoyer un autre",
  ),
  replySent: done("Message envoyé", "Il part vers le client et figure dans l'échange"),
  messageAttached: done("Message rattaché", "Il figure dans l'échange de la demande"),
  messageDiscarded: done("Message supprimé"),
  replyTemplateCreated: done(
    "Modèle créé",
    "Il est proposé au-dessus du message de chaque demande",
  ),
  replyTemplateUpdated: done("Modèle enregistré"),
  replyTemplateDeleted: done("Modèle supprimé"),
  bulkDone: done("Demandes mises à jour", "La modification a été appliquée aux demandes cochées"),
  ownerUpdated: done("Attribution mise à jour", "Le responsable de la demande a été mis à jour"),
  datacenterAdded: done("Datacenter ajouté"),
  synonymsAdded: done("Synonymes ajoutés", "La recherche du catalogue les suit dès maintenant"),
  synonymsRemoved: done("Synonymes supprimés"),
  leaseScaleSaved: done("Barème LOA enregistré"),
  leaseFinancerSaved: done("Financeur enregistré", "Les prochains dossiers lui sont transmis"),
  leaseKindAdded: done("Pièce ajoutée", "Les dossiers en cours la demandent aussi"),
  leaseKindUpdated: done("Pièce enregistrée"),
  leaseKindRemoved: done("Pièce retirée", "Elle n'est plus demandée aux clients"),
  leaseKindMoved: done("Ordre des pièces modifié"),
  leaseFileSent: done("Dossier transmis", "L'archive part au financeur par e-mail"),
  leaseFileSentNoMail: done(
    "Dossier marqué transmis",
    "Aucune adresse du financeur : téléchargez l'archive et envoyez-la lui",
  ),
  financerAnswerRecorded: done("Réponse du financeur enregistrée"),
  deliveryItemsSaved: done(
    "Matériel enregistré",
    "Le client peut signer le PV de livraison depuis le lien de son devis",
  ),
  datacenterRemoved: done(
    "Datacenter supprimé",
    "Les offres qui l'indiquaient n'ont plus de datacenter.",
  ),
  notSpam: done(
    "Demande rétablie",
    "La demande rejoint la liste et l'équipe commerciale en est notifiée.",
  ),
  webhookDeleted: done("Webhook supprimé"),
  quoteSent: done("Devis envoyé", "Il part par e-mail avec son PDF et le lien de réponse."),
  mailRetried: done("E-mail remis en file d'envoi", "Il partira dans quelques instants."),
  webhookResent: done("Envoi relancé", "La livraison repart dans quelques secondes."),
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
  /** Too many passwords being checked at once (503): a flood of sign-ins, not this account. */
  hashingBusy:
    "Le service de connexion est très sollicité. Veuillez réessayer dans quelques secondes.",
  tooManyAttempts: (retryAfterSeconds: number) =>
    `Trop de tentatives de connexion. ${retryInMinutes(retryAfterSeconds)}`,
  signOutFailed: "Erreur lors de la déconnexion",
  offerMissingFields: "Veuillez remplir tous les champs obligatoires",
  offerInvalid: "Formulaire invalide",
  offerCreateFailed: "Erreur lors de la création de l'offre",
  offerUpdateFailed: "Erreur lors de la mise à jour de l'offre",
  offerDeleteFailed: "Erreur lors de la suppression de l'offre",
  offerGone: "Cette offre n'existe plus.",
  offerUnpriced:
    "Le Barème LOA ne prévoit aucune des durées proposées : indiquez des durées qu'il prévoit, ou videz le montant financé.",
  leaseScaleLeavesOffersUnpriced: (titles: string[]) =>
    `Ce barème ne prévoit plus aucune des durées proposées par ${titles.length > 1 ? `${titles.length} offres LOA (${titles.slice(0, 5).join(", ")}${titles.length > 5 ? "…" : ""})` : `l'offre LOA ${titles[0]}`}. Gardez un coefficient pour l'une de leurs durées, ou modifiez d'abord ces offres.`,
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
