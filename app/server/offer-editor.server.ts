import { data, redirect } from "react-router";
import { ADMIN_MESSAGES, type ToastMessage } from "~/lib/admin-messages";
import { safeOfferListReturn } from "~/lib/admin-offer-list-schema";
import { OFFER_LIMITS } from "~/lib/limits";
import {
  OFFER_FORM_DEFAULTS,
  offerFormValues,
  offerToFormValues,
  type OfferField,
  type OfferFormValues,
} from "~/lib/offer-form";
import { parseOfferForm } from "~/lib/offer-form-schema";
import { createOffer, findOfferById, OfferNotFoundError, updateOffer } from "./admin-offers.server";
import { PRIVATE_HEADERS } from "./auth.server";
import { withFlash } from "./flash.server";
import { parseId, readForm } from "./form.server";
import { log } from "./log.server";

function notFound(): never {
  throw data({ message: ADMIN_MESSAGES.offerGone }, { status: 404, headers: PRIVATE_HEADERS });
}

/** The id of an editor URL, or the 404 page when it is malformed. */
export function requireOfferId(rawId: unknown): number {
  return parseId(rawId) ?? notFound();
}

/** The offer of an editor URL, or the 404 page for a malformed or unknown id. */
export async function requireOffer(rawId: unknown) {
  const offer = await findOfferById(requireOfferId(rawId));
  return offer ?? notFound();
}

/** The list to go back to, from the editor URL's `returnTo` (validated: the offer list only). */
export function editorReturnTo(request: Request): string {
  return safeOfferListReturn(new URL(request.url).searchParams.get("returnTo"));
}

export const COPY_SUFFIX = " (copie)";

/**
 * The new-offer form's starting values: the spec's defaults, or a copy of another offer whose
 * title says it is a copy and whose slug is left to the spec's rule (computed from the new title).
 */
export async function newOfferValues(request: Request): Promise<{
  values: OfferFormValues;
  from: { id: number; title: string } | null;
}> {
  const from = new URL(request.url).searchParams.get("from");
  if (from === null || from === "") return { values: OFFER_FORM_DEFAULTS, from: null };
  const source = await requireOffer(from);
  const title = `${source.title.slice(0, OFFER_LIMITS.title - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
  return {
    values: { ...offerToFormValues(source), title, slug: "" },
    from: { id: source.id, title: source.title },
  };
}

export type OfferEditorActionData = {
  /** Set when the administrator asked for the preview (no JavaScript): the typed values, unsaved. */
  preview?: true;
  error?: ToastMessage;
  fieldErrors?: Partial<Record<OfferField, string>>;
  values: OfferFormValues;
};

function answer(status: number, body: OfferEditorActionData) {
  return data(body, { status, headers: PRIVATE_HEADERS });
}

/**
 * The editor pages' action: `preview` re-renders the typed values with the description's preview;
 * otherwise the offer is validated and saved, and the administrator goes back to the list.
 * The caller has checked the session (requireAdmin) and, for an edit, the id's format.
 */
export async function saveOfferFromEditor(
  request: Request,
  requestId: string,
  target: { mode: "create" } | { mode: "edit"; id: number },
) {
  const form = await readForm(request);
  const values = offerFormValues(form);
  if (form.get("preview") !== null) return answer(200, { preview: true, values });

  const failedTitle =
    target.mode === "create" ? ADMIN_MESSAGES.offerCreateFailed : ADMIN_MESSAGES.offerUpdateFailed;
  const parsed = parseOfferForm(values);
  if (!parsed.success) {
    return answer(400, {
      error: parsed.missing
        ? { type: "error", title: parsed.message }
        : { type: "error", title: ADMIN_MESSAGES.offerInvalid, description: parsed.message },
      fieldErrors: parsed.fieldErrors,
      values,
    });
  }
  try {
    const row =
      target.mode === "create"
        ? await createOffer(parsed.data)
        : await updateOffer(target.id, parsed.data);
    log.info(target.mode === "create" ? "offer created" : "offer updated", {
      requestId,
      offerId: row.id,
    });
  } catch (error) {
    if (error instanceof OfferNotFoundError) {
      return answer(404, {
        error: { type: "error", title: failedTitle, description: ADMIN_MESSAGES.offerGone },
        values,
      });
    }
    log.error(`offer ${target.mode} failed`, { requestId, error });
    return answer(503, {
      error: { type: "error", title: failedTitle, description: "Veuillez réessayer." },
      values,
    });
  }
  throw redirect(editorReturnTo(request), {
    headers: withFlash(
      request,
      target.mode === "create" ? "offerCreated" : "offerUpdated",
      PRIVATE_HEADERS,
    ),
  });
}
