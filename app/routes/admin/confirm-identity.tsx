import { redirect } from "react-router";
import { ConfirmIdentity } from "~/features/accounts/confirm-identity";
import { adminMeta } from "~/routes/admin/meta";
import { safeAdminRedirect } from "~/features/accounts/redirect";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { confirmIdentity, recentlyAuthenticated } from "~/features/accounts/own-credentials.server";
import { readForm } from "~/platform/form.server";
import { log } from "~/platform/log.server";
import { identityAnswer } from "./confirm-identity.server";
import { journal } from "~/platform/journal.server";
import type { Route } from "./+types/confirm-identity";

// `Confirmez votre identité` before a sensitive read (the exports): then on to `redirectTo`.

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Confirmez votre identité");

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "signed-in");
  const redirectTo = safeAdminRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (recentlyAuthenticated(session)) throw redirect(redirectTo, { headers: PRIVATE_HEADERS });
  return { redirectTo, secondFactor: session.secondFactor };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireAdmin(request, "signed-in");
  const form = await readForm(request);
  const redirectTo = safeAdminRedirect(String(form.get("redirectTo") ?? ""));
  const unconfirmed = identityAnswer(await confirmIdentity(session, form), form);
  if (unconfirmed) return unconfirmed;
  log.info("identity confirmed", { requestId: context.requestId, userId: session.user.id });
  await journal.record(context, { actor: session.user, action: "identity-confirmed" });
  throw redirect(redirectTo, { headers: PRIVATE_HEADERS });
}

export default function ConfirmIdentityPage({ loaderData, actionData }: Route.ComponentProps) {
  const reauth = actionData?.reauth ?? {
    fields: { redirectTo: loaderData.redirectTo },
    secondFactor: loaderData.secondFactor,
  };
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Confirmez votre identité</h1>
      <ConfirmIdentity
        action="/admin/confirm"
        reauth={reauth}
        cancelTo="/admin"
        title="Mot de passe"
      />
    </div>
  );
}
