import { idSchema } from "~/platform/form.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { journal } from "~/platform/journal.server";
import { log } from "~/platform/log.server";
import { requestQuote } from "~/features/quotes/quotes.server";
import { pdfBytesResponse, pdfResponse, plainAnswer } from "./quote-response.server";
import type { Route } from "./+types/admin-contact-quote[.]pdf";

const REQUEST_GONE = "Cette demande n'existe pas ou a été supprimée.";

/**
 * `Devis (PDF)` on a request's page (issue 21): the quote of the request's configuration,
 * addressed to the person, numbered at its first download and the same document afterwards; once
 * accepted, the bytes the buyer signed (issue 40).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const id = idSchema.safeParse(params.id);
  if (!id.success) return plainAnswer(404, REQUEST_GONE, PRIVATE_HEADERS);
  const result = await requestQuote(id.data);
  if (result.kind === "missing") {
    return plainAnswer(404, REQUEST_GONE, PRIVATE_HEADERS);
  }
  if (result.kind === "no-offer") {
    return plainAnswer(
      409,
      "Cette demande ne porte sur aucune offre à chiffrer : pas de devis possible.",
      PRIVATE_HEADERS,
    );
  }
  const signed = result.kind === "signed";
  log.info(
    signed
      ? "signed quote downloaded"
      : result.issued
        ? "request quote issued"
        : "request quote downloaded",
    {
      requestId: context.requestId,
      contactId: id.data,
      number: result.number,
    },
  );
  await journal.recordBeforeExport(context, {
    actor: user,
    action: "quote-exported",
    target: result.number,
  });
  return signed
    ? pdfBytesResponse(result.pdf, result.fileName, PRIVATE_HEADERS)
    : pdfResponse(result.document, PRIVATE_HEADERS);
}
