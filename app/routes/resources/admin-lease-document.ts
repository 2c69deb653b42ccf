import { z } from "zod";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { leaseDocumentFile } from "~/features/lease-file/lease-file.server";
import { idSchema } from "~/platform/form.server";
import { journal } from "~/platform/journal.server";
import { storedFileAnswer } from "./download-response.server";
import { plainAnswer } from "./quote-response.server";
import type { Route } from "./+types/admin-lease-document";

const GONE = "Ce document n'existe pas ou a été supprimé avec sa demande.";

const paramsSchema = z.object({ id: idSchema, documentId: idSchema });

/** A document of a request's LOA file (issue 41), for whoever handles the requests: a download. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) return plainAnswer(404, GONE, PRIVATE_HEADERS);
  const { id, documentId } = parsed.data;
  return storedFileAnswer(
    "lease document",
    context,
    () => leaseDocumentFile(id, documentId),
    GONE,
    // Identity documents and bank details: who read them is journaled.
    (file) =>
      journal.record(context, {
        actor: user,
        action: "lease-document-downloaded",
        target: `demande ${id} : ${file.fileName}`,
      }),
  );
}
