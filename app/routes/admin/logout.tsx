import { Form, Link, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { PRIVATE_HEADERS, requireAdmin, signOut } from "~/features/accounts/auth.server";
import { withFlash } from "~/platform/flash.server";
import { actionFailure } from "~/platform/form.server";
import { log } from "~/platform/log.server";
import { journal } from "~/platform/journal.server";
import type { Route } from "./+types/logout";

// Sign-out is a POST from the admin header's 'Déconnexion' button; a GET only leads back.
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, "signed-in", { setup: "any" });
  throw redirect("/admin", { headers: PRIVATE_HEADERS });
}

/**
 * Ends the session server-side and goes back to the site with 'Déconnexion réussie'. Without a
 * live session there is nothing to end: same answer, nothing changed.
 * (No requireAdmin here on purpose: signing out must work with an expired session too.)
 */
export async function action({ request, context }: Route.ActionArgs) {
  let setCookie: string;
  try {
    const ended = await signOut(request);
    setCookie = ended.setCookie;
    if (ended.user) await journal.record(context, { actor: ended.user, action: "sign-out" });
  } catch (error) {
    log.error("sign-out failed", { requestId: context.requestId, error });
    return actionFailure(503, { error: ADMIN_MESSAGES.signOutFailed });
  }
  log.info("signed out", { requestId: context.requestId });
  const headers = withFlash(request, "signedOut", PRIVATE_HEADERS);
  headers.append("Set-Cookie", setCookie);
  throw redirect("/", { headers });
}

export function meta() {
  return [{ title: ADMIN_MESSAGES.signOutFailed }, { name: "robots", content: "noindex" }];
}

/**
 * Shown only when sign-out fails on a form post without JavaScript (the header's button posts
 * through a fetcher and shows a toast instead): a French page rather than the bare data answer.
 */
export default function SignOutFailed() {
  return (
    <main className="container mx-auto flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-3xl font-bold">{ADMIN_MESSAGES.signOutFailed}</h1>
      <p className="text-muted-foreground">
        Votre session n'a pas pu être fermée. Veuillez réessayer dans quelques instants.
      </p>
      <Form method="post" action="/admin/logout">
        <Button type="submit">Réessayer</Button>
      </Form>
      <Link to="/admin" className="text-primary underline underline-offset-4">
        Retour à l'administration
      </Link>
    </main>
  );
}
