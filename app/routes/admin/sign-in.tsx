import { Loader2, Server } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Input } from "~/components/ui/input";
import { ADMIN_MESSAGES, type ToastMessage } from "~/lib/admin-messages";
import { signInFormSchema } from "~/lib/credentials";
import { AUTH_LIMITS } from "~/lib/limits";
import { safeAdminRedirect } from "~/lib/redirect";
import { useActionToast } from "~/hooks/use-action-toast";
import { useHydrated } from "~/hooks/use-hydrated";
import {
  getAdminSession,
  PRIVATE_HEADERS,
  sessionCookie,
  sessionToken,
  signIn,
  type SignInResult,
} from "~/server/auth.server";
import { withFlash } from "~/server/flash.server";
import { readForm } from "~/server/form.server";
import { log } from "~/server/log.server";
import type { Route } from "./+types/sign-in";
import { retryAfter } from "~/lib/http-headers";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => [
  { title: "Connexion — Espace Administrateur" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const redirectTo = safeAdminRedirect(new URL(request.url).searchParams.get("redirectTo"));
  // Spec: a user already signed in is sent to the admin area.
  if (await getAdminSession(request)) throw redirect(redirectTo);
  return { redirectTo };
}

export type AuthActionData = { error: ToastMessage; email: string };

function failure(status: number, description: string, email: string, headers?: HeadersInit) {
  return data<AuthActionData>(
    { error: { type: "error", title: ADMIN_MESSAGES.signInFailed, description }, email },
    { status, headers },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await readForm(request, signInFormSchema);
  const { values } = submission;
  const email = values.email.slice(0, AUTH_LIMITS.email);
  if (!submission.success) {
    const missing = !values.email.trim() || !values.password;
    return failure(
      400,
      missing ? ADMIN_MESSAGES.missingCredentials : ADMIN_MESSAGES.wrongCredentials,
      email,
    );
  }
  let result: SignInResult;
  try {
    result = await signIn(submission.data, context.clientIp, {
      previousToken: sessionToken(request),
      client: { userAgent: request.headers.get("user-agent"), ip: context.clientIp },
    });
  } catch (error) {
    log.error("sign-in failed", { requestId: context.requestId, error });
    return data<AuthActionData>(
      { error: { type: "error", ...ADMIN_MESSAGES.unexpected }, email },
      { status: 503 },
    );
  }
  if (result.kind === "rate-limited") {
    log.warn("sign-in rate limited", { requestId: context.requestId });
    return failure(
      429,
      ADMIN_MESSAGES.tooManyAttempts(result.retryAfterSeconds),
      email,
      retryAfter(result.retryAfterSeconds),
    );
  }
  if (result.kind === "invalid") {
    log.info("sign-in refused", { requestId: context.requestId });
    return failure(401, ADMIN_MESSAGES.wrongCredentials, email);
  }
  log.info("signed in", { requestId: context.requestId, userId: result.user.id });
  const headers = withFlash(request, "signedIn", PRIVATE_HEADERS);
  headers.append("Set-Cookie", sessionCookie(request, result.token));
  throw redirect(safeAdminRedirect(submission.data.redirectTo), { headers });
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = navigation.state !== "idle" && navigation.formAction === "/auth";

  useActionToast(actionData, (result) => result.error);

  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <div className="w-full max-w-md space-y-6">
        <div className="flex flex-col items-center gap-2 text-center">
          <Server className="size-10 text-primary" aria-hidden="true" />
          <h1 className="text-2xl font-bold">Espace Administrateur</h1>
        </div>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Connexion</CardTitle>
            <CardDescription>Connectez-vous pour gérer les offres et les demandes.</CardDescription>
          </CardHeader>
          <CardContent>
            {actionData?.error && !hydrated ? (
              <FormAlert
                className="mb-4 p-3 text-sm"
                title={actionData.error.title}
                description={actionData.error.description}
              />
            ) : null}
            <Form method="post" action="/auth" className="space-y-4" aria-label="Connexion">
              <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
              <Field id="email" label="Email">
                <Input
                  name="email"
                  type="email"
                  required
                  autoComplete="username"
                  maxLength={AUTH_LIMITS.email}
                  defaultValue={actionData?.email}
                />
              </Field>
              <Field id="password" label="Mot de passe">
                <Input
                  name="password"
                  type="password"
                  required
                  autoComplete="current-password"
                  maxLength={AUTH_LIMITS.passwordMax}
                />
              </Field>
              <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
                {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                Se connecter
              </Button>
            </Form>
          </CardContent>
        </Card>
        <p className="text-center">
          <Link to="/" className="text-sm text-muted-foreground hover:text-primary">
            ← Retour au site
          </Link>
        </p>
      </div>
    </main>
  );
}
