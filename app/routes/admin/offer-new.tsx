import { OfferEditor } from "~/features/offers/offer-editor";
import { adminMeta } from "~/routes/admin/meta";
import { withReturnTo } from "~/features/offers/admin-offer-list";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { offerReferenceOptions } from "~/features/offers/offer-listing.server";
import { readLeaseScale } from "~/features/offers/lease.server";
import { editorReturnTo, newOfferValues, offerEditorAction } from "./offer-editor.server";
import type { Route } from "./+types/offer-new";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Nouvelle offre");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, "offers");
  const { values, from } = await newOfferValues(request);
  return {
    values,
    from,
    returnTo: editorReturnTo(request),
    references: await offerReferenceOptions(),
    // A financed LOA offer's price is the scale's: the form shows it and how (decision 038).
    scale: await readLeaseScale(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "offers");
  return offerEditorAction(request, context, { mode: "create" }, user);
}

export default function NewOffer({ loaderData, actionData }: Route.ComponentProps) {
  const { from, returnTo } = loaderData;
  const base = from ? `/admin/offers/new?from=${from.id}` : "/admin/offers/new";
  return (
    <OfferEditor
      mode="create"
      values={loaderData.values}
      answer={actionData}
      action={withReturnTo(base, returnTo)}
      returnTo={returnTo}
      formKey={from ? `copy-${from.id}` : "create"}
      references={loaderData.references}
      scale={loaderData.scale}
      note={from ? `Copie de « ${from.title} » : vérifiez le titre et la référence.` : undefined}
    />
  );
}
