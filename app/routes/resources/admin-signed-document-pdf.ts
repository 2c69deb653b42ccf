import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { withDatabase } from "~/platform/availability.server";
import { idSchema } from "~/platform/form.server";
import { journal } from "~/platform/journal.server";
import { signedDocumentById, signedRequestHeld } from "~/platform/signed-documents.server";
import { pdfBytesResponse, plainAnswer } from "./quote-response.server";
import type { Route } from "./+types/admin-signed-document-pdf";

const GONE = "Ce document signé n'existe pas ou sa durée de conservation est écoulée.";

/**
 * A signed document's PDF as it was signed (issue 40), from the person's data page: what an
 * access request hands over, also once the request is purged or erased (Administrateur only, as
 * that page). The request page links its signed delivery report here (issue 41): whoever handles
 * the requests gets the documents of a request that still exists.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const id = idSchema.safeParse(params.id);
  if (!id.success) return plainAnswer(404, GONE, PRIVATE_HEADERS);
  const signed = await withDatabase("signed document", context, () => signedDocumentById(id.data));
  if (!signed) return plainAnswer(404, GONE, PRIVATE_HEADERS);
  if (user.role !== "admin") {
    const live = await withDatabase("signed document request", context, () =>
      signedRequestHeld(signed.contactRequestId),
    );
    if (!live) return plainAnswer(403, ADMIN_MESSAGES.forbidden, PRIVATE_HEADERS);
  }
  await journal.recordBeforeExport(context, {
    actor: user,
    action: "signed-document-exported",
    target: signed.reference,
  });
  return pdfBytesResponse(signed.pdf, signed.fileName, PRIVATE_HEADERS);
}
