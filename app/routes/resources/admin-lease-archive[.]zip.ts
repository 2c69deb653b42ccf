import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { buildHandOffArchive } from "~/features/lease-file/handoff-archive.server";
import { retryAfter } from "~/lib/http-headers";
import { QueueFullError } from "~/lib/semaphore";
import { withDatabase } from "~/platform/availability.server";
import { idSchema } from "~/platform/form.server";
import { journal } from "~/platform/journal.server";
import { downloadResponse } from "./download-response.server";
import { plainAnswer, unavailableAnswer } from "./quote-response.server";
import type { Route } from "./+types/admin-lease-archive[.]zip";

const GONE = "Cette demande n'a pas de dossier LOA, ou il a été supprimé.";

/**
 * `Télécharger l'archive du dossier` (issue 41): the archive the financer receives (the signed
 * quote, the documents, the summary), for whoever handles the requests; who took it is journaled.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const id = idSchema.safeParse(params.id);
  if (!id.success) return plainAnswer(404, GONE, PRIVATE_HEADERS);
  let built: Awaited<ReturnType<typeof buildHandOffArchive>> | Response;
  try {
    built = await withDatabase("lease archive", context, () => buildHandOffArchive(id.data), {
      fallback: () => unavailableAnswer(PRIVATE_HEADERS),
    });
  } catch (error) {
    if (!(error instanceof QueueFullError)) throw error;
    return plainAnswer(503, "Trop d'archives en préparation : réessayez dans une minute.", {
      ...PRIVATE_HEADERS,
      ...retryAfter(60),
    });
  }
  if (built instanceof Response) return built;
  if (built.kind === "missing") return plainAnswer(404, GONE, PRIVATE_HEADERS);
  if (built.kind === "incomplete") {
    return plainAnswer(
      409,
      "Le dossier n'est pas complet : son archive se prépare une fois toutes les pièces reçues.",
      PRIVATE_HEADERS,
    );
  }
  const { archive } = built;
  // The buyer's identity documents and bank details: who took them is journaled first.
  await journal.recordBeforeExport(context, {
    actor: user,
    action: "lease-file-downloaded",
    target: `demande ${id.data} : ${archive.fileName} (SHA-256 ${archive.sha256})`,
  });
  return downloadResponse({
    fileName: archive.fileName,
    contentType: "application/zip",
    data: archive.zip,
  });
}
