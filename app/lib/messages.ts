// Spec section 8: user-facing messages, word for word.
export const MESSAGES = {
  listingError: "Erreur lors du chargement des offres. Veuillez réessayer.",
  listingEmpty: "Aucune offre ne correspond à vos critères de recherche.",
  offerNotFound: {
    title: "Offre non trouvée",
    description: "Cette offre n'existe pas ou n'est plus disponible.",
  },
  contactMissing: {
    title: "Champs manquants",
    description: "Veuillez remplir tous les champs obligatoires.",
  },
  contactSent: {
    title: "Message envoyé !",
    description: "Nous vous répondrons dans les plus brefs délais.",
  },
  contactFailed: {
    title: "Erreur",
    description: "Une erreur est survenue lors de l'envoi du message.",
  },
  notFound: "Oops! Page not found",
} as const;
