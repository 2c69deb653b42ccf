import { OfferEditor } from "~/features/offers/offer-editor";
import { adminMeta } from "~/routes/admin/meta";
import { withReturnTo } from "~/features/offers/admin-offer-list";
import { offerToFormValues } from "~/features/offers/offer-form";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { offerReferenceOptions } from "~/features/offers/offer-listing.server";
import { readLeaseScale } from "~/features/offers/lease.server";
import { waitingAlertCounts } from "~/features/alerts/alerts.server";
import { alertsWaitingNote } from "~/features/alerts/alerts";
import {
  editorReturnTo,
  offerEditorAction,
  requireOffer,
  requireOfferId,
} from "./offer-editor.server";
import type { Route } from "./+types/offer-edit";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = ({ data }) =>
  adminMeta(data ? `Modifier l'offre ${data.values.title}` : "Offre introuvable");

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request, "offers");
  const offer = await requireOffer(params.id);
  return {
    id: offer.id,
    values: offerToFormValues(offer),
    returnTo: editorReturnTo(request),
    references: await offerReferenceOptions(),
    // A financed LOA offer's price is the scale's: the form shows it and how (decision 038).
    scale: await readLeaseScale(),
    // The demand the team can see (issue 30).
    alertsWaiting: (await waitingAlertCounts([offer.id])).get(offer.id) ?? 0,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "offers");
  const id = requireOfferId(params.id);
  return offerEditorAction(request, context, { mode: "edit", id }, user);
}

export default function EditOffer({ loaderData, actionData }: Route.ComponentProps) {
  const { id, returnTo } = loaderData;
  return (
    <OfferEditor
      mode="edit"
      offerId={id}
      values={loaderData.values}
      answer={actionData}
      action={withReturnTo(`/admin/offers/${id}`, returnTo)}
      returnTo={returnTo}
      formKey={`edit-${id}`}
      references={loaderData.references}
      scale={loaderData.scale}
      note={alertsWaitingNote(loaderData.alertsWaiting)}
    />
  );
}
