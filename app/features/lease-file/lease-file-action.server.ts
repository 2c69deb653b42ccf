import { z } from "zod";
import { withDatabase } from "~/platform/availability.server";
import { actionDone, actionFailure, idSchema, parseForm } from "~/platform/form.server";
import type { AdminUser } from "~/features/accounts/users.server";
import { refuseLeaseDocument } from "./lease-file.server";

const refuseSchema = z.object({
  intent: z.literal("document-refuse"),
  documentId: idSchema,
  reason: z
    .string()
    .trim()
    .min(1, "Dites au client pourquoi ce document est refusé.")
    .max(300, "Le motif tient en 300 caractères au plus."),
});

const NOT_REFUSED = "Document non refusé";

/**
 * `Refuser ce document` of the request page's LOA file: the buyer reads the reason on their page
 * and the file is incomplete again. The caller has passed requireAdmin and read the form.
 */
export async function refuseDocumentAction(
  request: Request,
  form: FormData,
  context: { requestId: string; clientIp: string },
  options: { user: AdminUser; id: number },
) {
  const submission = parseForm(form, refuseSchema);
  if (!submission.success) {
    return actionFailure(400, {
      intent: "document-refuse",
      error: NOT_REFUSED,
      description: submission.error.issues[0]?.message,
    });
  }
  const { documentId, reason } = submission.data;
  const outcome = await withDatabase("lease document refusal", context, () =>
    refuseLeaseDocument(options.id, documentId, reason, options.user),
  );
  if (outcome !== "refused") {
    return actionFailure(outcome === "missing" ? 404 : 409, {
      intent: "document-refuse",
      error: NOT_REFUSED,
      description:
        outcome === "missing" ? "Ce document n'existe plus." : "Ce document est déjà refusé.",
    });
  }
  return actionDone(request, context, "leaseDocumentRefused", `/admin/contacts/${options.id}`, {
    actor: options.user,
    action: "lease-document-refused",
    target: `demande ${options.id} : document ${documentId}`,
  });
}
