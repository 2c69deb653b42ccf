// The HTTP side shared by the two editor pages (offer-new.tsx, offer-edit.tsx): their 404, their
// return path and their action. What a save does is saveOffer's (app/features/offers/offers.server.ts).
import { data, redirect } from "react-router";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { safeOfferListReturn } from "~/features/offers/admin-offer-list-schema";
import {
  OFFER_FORM_DEFAULTS,
  offerFormValues,
  type OfferField,
  type OfferFormValues,
} from "~/features/offers/offer-form";
import { OFFER_FIELDS } from "~/lib/offer-fields";
import type { OfferEditorAnswer } from "~/features/offers/offer-editor";
import { parseOfferForm, type OfferFormResult } from "~/features/offers/offer-form-schema";
import { PRIVATE_HEADERS } from "~/features/accounts/auth.server";
import { journal } from "~/platform/journal.server";
import { withFlash } from "~/platform/flash.server";
import type { AdminUser } from "~/features/accounts/users.server";
import { actionFailure, parseId, readForm } from "~/platform/form.server";
import {
  findOfferById,
  offerCopyValues,
  saveOffer,
  type SaveOfferResult,
} from "~/features/offers/offers.server";
import { offerReferenceOptions } from "~/features/offers/offer-listing.server";

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

/** The new-offer form's starting values: the spec's defaults, or a copy of offer `?from=`. */
export async function newOfferValues(request: Request): Promise<{
  values: OfferFormValues;
  from: { id: number; title: string } | null;
}> {
  const from = new URL(request.url).searchParams.get("from");
  if (from === null || from === "") return { values: OFFER_FORM_DEFAULTS, from: null };
  const source = await requireOffer(from);
  return { values: offerCopyValues(source), from: { id: source.id, title: source.title } };
}

/** A `reference` field (datacenter) must name a row that exists: refused like any other field. */
async function checkReferences(parsed: OfferFormResult): Promise<OfferFormResult> {
  if (!parsed.success) return parsed;
  const options = await offerReferenceOptions();
  for (const [field, choices] of Object.entries(options) as [OfferField, { value: string }[]][]) {
    const value = parsed.data[field];
    if (value === null || choices.some((c) => c.value === value)) continue;
    const message = `${OFFER_FIELDS[field].label} « ${String(value)} » n'existe pas.`;
    return { success: false, missing: false, message, fieldErrors: { [field]: message } };
  }
  return parsed;
}

// OfferEditorAnswer is the editor's props (components below routes import no route).
export type { OfferEditorAnswer };

const FAILURE_STATUS = { missing: 404, failed: 503 } as const;
const FAILURE_DESCRIPTION = { missing: ADMIN_MESSAGES.offerGone, failed: "Veuillez réessayer." };

/**
 * The editor pages' action: `preview` re-renders the typed values with the description's preview;
 * otherwise the values are validated and saved, and the administrator goes back to the list.
 * The caller has checked the session (requireAdmin) and, for an edit, the id's format.
 */
export async function offerEditorAction(
  request: Request,
  context: { requestId: string; clientIp: string },
  target: { mode: "create" } | { mode: "edit"; id: number },
  actor: AdminUser,
) {
  const form = await readForm(request);
  const values = offerFormValues(form);
  if (form.get("preview") !== null) {
    return data({ preview: true as const, values }, { headers: PRIVATE_HEADERS });
  }

  const parsed = await checkReferences(parseOfferForm(values));
  if (!parsed.success) {
    const { missing, message, fieldErrors } = parsed;
    return actionFailure(400, {
      ...(missing
        ? { error: message }
        : { error: ADMIN_MESSAGES.offerInvalid, description: message }),
      fieldErrors,
      values,
    });
  }
  const result: SaveOfferResult = await saveOffer(parsed.data, target, context);
  if (result.kind === "unpriced") {
    const description = ADMIN_MESSAGES.offerUnpriced;
    return actionFailure(400, {
      error: ADMIN_MESSAGES.offerInvalid,
      description,
      fieldErrors: { leaseDurations: description },
      values,
    });
  }
  if (result.kind !== "saved") {
    const title =
      target.mode === "create"
        ? ADMIN_MESSAGES.offerCreateFailed
        : ADMIN_MESSAGES.offerUpdateFailed;
    return actionFailure(FAILURE_STATUS[result.kind], {
      error: title,
      description: FAILURE_DESCRIPTION[result.kind],
      values,
    });
  }
  await journal.record(context, {
    actor,
    action: target.mode === "create" ? "offer-created" : "offer-updated",
    target: `offre ${result.id}`,
  });
  throw redirect(editorReturnTo(request), {
    headers: withFlash(
      request,
      target.mode === "create" ? "offerCreated" : "offerUpdated",
      PRIVATE_HEADERS,
    ),
  });
}
