import { Form, Link, redirect, useNavigation } from "react-router";
import { AuthEmailField, AuthShell, AuthSubmit } from "~/features/accounts/auth-shell";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { signInFormSchema } from "~/features/accounts/credentials";
import { AUTH_LIMITS } from "~/lib/limits";
import { FORGOT_PASSWORD_PATH } from "~/features/accounts/password-reset";
import { safeAdminRedirect, signInUrl } from "~/features/accounts/redirect";
import {
  clearSessionCookie,
  getAdminSession,
  PRIVATE_HEADERS,
  sessionCookie,
  sessionToken,
} from "~/features/accounts/auth.server";
import {
  completeSecondFactor,
  signIn,
  type SignInResult,
} from "~/features/accounts/sign-in.server";
import { withFlash } from "~/platform/flash.server";
import { actionFailure, parseForm, readForm } from "~/platform/form.server";
import { findPendingSignIn, SECOND_FACTOR_WAIT_MS } from "~/features/accounts/sessions.server";
import { firstFieldError } from "~/lib/field-errors";
import { z } from "zod";
import { log } from "~/platform/log.server";
import { journal } from "~/platform/journal.server";
import { knownDeviceCookie, readKnownDevice } from "~/features/accounts/known-device.server";
import { HASHING_LIMITS, HashingBusyError } from "~/features/accounts/password.server";
import type { Route } from "./+types/sign-in";
import { retryAfter } from "~/lib/http-headers";
import { countRefusal } from "~/platform/metrics.server";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => [
  { title: "Connexion — Espace Administrateur" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const redirectTo = safeAdminRedirect(new URL(request.url).searchParams.get("redirectTo"));
  // Spec: a user already signed in is sent to the admin area.
  if (await getAdminSession(request)) throw redirect(redirectTo);
  // Password checked, second factor awaited: the code step.
  const pending = await findPendingSignIn(sessionToken(request));
  return { redirectTo, step: pending ? ("code" as const) : ("password" as const) };
}

const codeFormSchema = z.object({
  intent: z.literal("code"),
  code: z.string().trim().min(1, "Veuillez saisir le code.").max(40, "Code incorrect."),
  redirectTo: z.string().max(500).optional(),
});

function failure(status: number, description: string, email: string, headers?: HeadersInit) {
  return actionFailure(
    status,
    { error: ADMIN_MESSAGES.signInFailed, description, values: { email } },
    headers,
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  if (form.get("intent") === "code") return codeStep(request, context, form);
  const submission = parseForm(form, signInFormSchema);
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
      knownDevice: readKnownDevice(request),
      requestId: context.requestId,
    });
  } catch (error) {
    if (error instanceof HashingBusyError) return hashingBusy(context, email);
    log.error("sign-in failed", { requestId: context.requestId, error });
    const { title, description } = ADMIN_MESSAGES.unexpected;
    return actionFailure(503, { error: title, description, values: { email } });
  }
  if (result.kind === "rate-limited") {
    log.warn("sign-in rate limited", { requestId: context.requestId });
    countRefusal("sign-in");
    return failure(
      429,
      ADMIN_MESSAGES.tooManyAttempts(result.retryAfterSeconds),
      email,
      retryAfter(result.retryAfterSeconds),
    );
  }
  if (result.kind === "invalid") {
    log.info("sign-in refused", { requestId: context.requestId });
    // Only a known account is named: an unknown e-mail may be a password typed in the wrong field.
    await journal.record(context, { actor: result.account, action: "sign-in-failed" });
    return failure(401, ADMIN_MESSAGES.wrongCredentials, email);
  }
  const redirectTo = safeAdminRedirect(submission.data.redirectTo);
  if (result.kind === "second-factor") {
    log.info("sign-in password accepted, second factor asked", {
      requestId: context.requestId,
      userId: result.user.id,
    });
    const headers = new Headers(PRIVATE_HEADERS);
    headers.append("Set-Cookie", sessionCookie(request, result.token, SECOND_FACTOR_WAIT_MS));
    throw redirect(signInUrl(redirectTo), { headers });
  }
  return signedIn(request, context, result, redirectTo);
}

/** A flood of sign-ins fills the hashing line (password.server.ts): 503, try again shortly. */
function hashingBusy(context: { requestId: string }, email: string) {
  log.warn("sign-in refused: password hashing busy", { requestId: context.requestId });
  return failure(
    503,
    ADMIN_MESSAGES.hashingBusy,
    email,
    retryAfter(HASHING_LIMITS.retryAfterSeconds),
  );
}

/** The session (journaled with it by auth.server.ts) goes to the browser, with the known-device cookie after a code. */
function signedIn(
  request: Request,
  context: { requestId: string; clientIp: string },
  result: { user: { id: number; email: string }; token: string; knownDevice?: string },
  redirectTo: string,
): never {
  log.info("signed in", { requestId: context.requestId, userId: result.user.id });
  const headers = withFlash(request, "signedIn", PRIVATE_HEADERS);
  headers.append("Set-Cookie", sessionCookie(request, result.token));
  if (result.knownDevice) {
    headers.append("Set-Cookie", knownDeviceCookie(request, result.knownDevice));
  }
  throw redirect(redirectTo, { headers });
}

/** The code step: a 6-digit code or a recovery code, after the password. */
async function codeStep(
  request: Request,
  context: { requestId: string; clientIp: string },
  form: FormData,
) {
  const submission = parseForm(form, codeFormSchema);
  if (!submission.success) {
    return failure(400, firstFieldError(submission.fieldErrors, CODE_REFUSED), "");
  }
  const result = await completeSecondFactor(
    sessionToken(request),
    submission.data.code,
    context.clientIp,
    {
      client: { userAgent: request.headers.get("user-agent"), ip: context.clientIp },
      knownDevice: readKnownDevice(request),
      requestId: context.requestId,
    },
  );
  if (result.kind === "expired") {
    const headers = { "Set-Cookie": clearSessionCookie(request) };
    return failure(401, ADMIN_MESSAGES.signInExpired, "", headers);
  }
  if (result.kind === "rate-limited") {
    log.warn("second factor rate limited", { requestId: context.requestId });
    countRefusal("second-factor");
    return failure(
      429,
      ADMIN_MESSAGES.tooManyAttempts(result.retryAfterSeconds),
      "",
      retryAfter(result.retryAfterSeconds),
    );
  }
  if (result.kind === "wrong-code") {
    log.info("second factor refused", {
      requestId: context.requestId,
      userId: result.user.id,
      alerted: result.alerted,
    });
    await journal.record(context, { actor: result.user, action: "code-refused" });
    return failure(401, CODE_REFUSED, "");
  }
  return signedIn(request, context, result, safeAdminRedirect(submission.data.redirectTo));
}

const CODE_REFUSED = "Code incorrect ou déjà utilisé.";

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/auth";

  return (
    <AuthShell
      title="Connexion"
      description="Connectez-vous pour gérer les offres et les demandes."
      failure={actionData}
    >
      {loaderData.step === "code" ? (
        <CodeForm redirectTo={loaderData.redirectTo} busy={busy} />
      ) : (
        <Form method="post" action="/auth" className="space-y-4" aria-label="Connexion">
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <AuthEmailField defaultValue={actionData?.values?.email} />
          <Field id="password" label="Mot de passe">
            <Input
              name="password"
              type="password"
              required
              autoComplete="current-password"
              maxLength={AUTH_LIMITS.passwordMax}
            />
          </Field>
          <AuthSubmit busy={busy}>Se connecter</AuthSubmit>
          <p className="text-center text-sm">
            <Link
              to={FORGOT_PASSWORD_PATH}
              className="text-muted-foreground underline hover:text-primary"
            >
              Mot de passe oublié ?
            </Link>
          </p>
        </Form>
      )}
    </AuthShell>
  );
}

function CodeForm({ redirectTo, busy }: { redirectTo: string; busy: boolean }) {
  return (
    <Form method="post" action="/auth" className="space-y-4" aria-label="Double authentification">
      <input type="hidden" name="intent" value="code" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field
        id="code"
        label="Code à 6 chiffres"
        description="Le code affiché par votre application d'authentification, ou l'un de vos codes de secours."
      >
        <Input name="code" required autoComplete="one-time-code" maxLength={40} autoFocus />
      </Field>
      <AuthSubmit busy={busy}>Vérifier</AuthSubmit>
    </Form>
  );
}
