import { z } from "zod";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { attachmentFile } from "~/features/conversation/attachments.server";
import { idSchema } from "~/platform/form.server";
import { log } from "~/platform/log.server";
import { storedFileAnswer } from "./download-response.server";
import { plainAnswer } from "./quote-response.server";
import type { Route } from "./+types/admin-message-attachment";

const GONE = "Cette pièce jointe n'existe pas ou a été supprimée avec son message.";

const paramsSchema = z.object({ messageId: idSchema, attachmentId: idSchema });

/**
 * A file an incoming message carried (issue 40), for whoever handles the requests: always a
 * download, of the type read from its bytes when it was kept, never shown by the browser here.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) return plainAnswer(404, GONE, PRIVATE_HEADERS);
  const { messageId, attachmentId } = parsed.data;
  return storedFileAnswer(
    "message attachment",
    context,
    () => attachmentFile(messageId, attachmentId),
    GONE,
    () =>
      log.info("message attachment downloaded", {
        requestId: context.requestId,
        messageId,
        attachmentId,
        userId: user.id,
      }),
  );
}
