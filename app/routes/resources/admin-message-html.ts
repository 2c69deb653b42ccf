import { z } from "zod";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { htmlDocument, storedHtml } from "~/features/conversation/message-html.server";
import { cacheControl } from "~/lib/http-headers";
import { withDatabase } from "~/platform/availability.server";
import { idSchema } from "~/platform/form.server";
import { plainAnswer, unavailableAnswer } from "./quote-response.server";
import type { Route } from "./+types/admin-message-html";

const GONE = "Ce message n'existe pas, n'a pas de mise en forme d'origine ou a été supprimé.";

const paramsSchema = z.object({ messageId: idSchema });

/**
 * `Voir la mise en forme d'origine` under a message the buyer wrote in HTML (issue 40): its HTML,
 * sanitised when stored, as a page of its own that may load nothing, run nothing and send no
 * Referer. For whoever handles the requests.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(request, "contacts");
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) return plainAnswer(404, GONE, PRIVATE_HEADERS);
  const message = await withDatabase(
    "message html",
    context,
    () => storedHtml(parsed.data.messageId),
    { fallback: () => unavailableAnswer(PRIVATE_HEADERS) },
  );
  if (message instanceof Response) return message;
  if (!message) return plainAnswer(404, GONE, PRIVATE_HEADERS);
  return new Response(htmlDocument(message.subject, message.html), {
    headers: {
      ...PRIVATE_HEADERS,
      ...cacheControl("private"),
      "Content-Type": "text/html; charset=utf-8",
      // Links open in a tab of their own (rel=noopener noreferrer), outside this sandbox.
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; sandbox allow-popups allow-popups-to-escape-sandbox",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    },
  });
}
