import type { ContactStatus } from "~/lib/domain";
import type { DocumentState } from "./lease-file.server";

// The LOA file's words (issue 41), shared by the buyer's page, the request's page and the mails.

export const DOCUMENT_STATE_LABELS: Record<DocumentState, string> = {
  missing: "À fournir",
  received: "Reçu",
  refused: "Refusé",
};

/** Where the file stands, in one sentence for the buyer. */
export function fileStatusSentence(status: ContactStatus, missing: string[]): string {
  switch (status) {
    case "file_incomplete":
      return missing.length
        ? `Dossier incomplet : il manque ${missing.join(", ")}.`
        : "Dossier incomplet.";
    case "file_complete":
      return "Dossier complet : nous le transmettons au financeur.";
    case "file_sent":
      return "Dossier transmis au financeur : sa réponse arrive en général sous quelques jours.";
    case "financer_approved":
      return "Le financeur a donné son accord : nous préparons la livraison de votre serveur.";
    case "financer_refused":
      return "Le financeur n'a pas donné son accord : notre équipe vous contacte.";
    case "delivered":
      return "Serveur livré : le procès-verbal de livraison est signé.";
    default:
      return "Dossier en cours.";
  }
}
