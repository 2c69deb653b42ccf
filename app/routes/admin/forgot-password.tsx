import { data, Form, useNavigation } from "react-router";
import { AuthEmailField, AuthShell, AuthSubmit } from "~/features/accounts/auth-shell";
import { FormAlert } from "~/components/ui/form-alert";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { firstFieldError } from "~/lib/field-errors";
import { retryAfter } from "~/lib/http-headers";
import { AUTH_LIMITS } from "~/lib/limits";
import { retryInMinutes } from "~/lib/messages";
import { FORGOT_PASSWORD_PATH, RESET_MESSAGES } from "~/features/accounts/password-reset";
import { forgotPasswordSchema } from "~/features/accounts/password-reset-schema";
import { PRIVATE_HEADERS } from "~/features/accounts/auth.server";
import { actionFailure, readForm } from "~/platform/form.server";
import { log } from "~/platform/log.server";
import { notificationsEnabled } from "~/features/mail/mail-settings.server";
import { requestPasswordReset } from "~/features/accounts/password-reset.server";
import type { Route } from "./+types/forgot-password";
import { countRefusal } from "~/platform/metrics.server";

// `Mot de passe oublié ?` (issue 20): the same answer whether the address has an account or not.

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => [
  { title: "Mot de passe oublié — Espace Administrateur" },
  { name: "robots", content: "noindex, nofollow" },
];

const FAILED = "Demande non envoyée";

function failure(status: number, description: string, email: string, headers?: HeadersInit) {
  return actionFailure(status, { error: FAILED, description, values: { email } }, headers);
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await readForm(request, forgotPasswordSchema);
  const email = submission.values.email.slice(0, AUTH_LIMITS.email);
  if (!submission.success) {
    return failure(400, firstFieldError(submission.fieldErrors, FAILED), email);
  }
  const mailEnabled = notificationsEnabled();
  let result;
  try {
    result = await requestPasswordReset(submission.data.email, context.clientIp, {
      mailEnabled,
      requestId: context.requestId,
    });
  } catch (error) {
    log.error("password reset request failed", { requestId: context.requestId, error });
    return failure(503, ADMIN_MESSAGES.unexpected.description, email);
  }
  if (result.kind === "rate-limited") {
    log.warn("password reset rate limited", { requestId: context.requestId });
    countRefusal("password-reset");
    return failure(
      429,
      `Trop de demandes. ${retryInMinutes(result.retryAfterSeconds)}`,
      email,
      retryAfter(result.retryAfterSeconds),
    );
  }
  const fields = { requestId: context.requestId, userId: result.account?.id };
  // Journaled by requestPasswordReset, for an unknown address too (no account named).
  if (result.outcome === "mail-off") {
    log.warn(
      "password reset asked but e-mails are off (SMTP_URL is not set): no link sent; npm run admin:create sets a password from the shell",
      fields,
    );
  } else if (result.outcome === "mail-limit") {
    log.warn("password reset asked again: mails to this account capped, none queued", fields);
  } else {
    log.info("password reset requested", { ...fields, outcome: result.outcome });
  }
  // The page's own success: the same words whether the address has an account or not.
  return data({ sent: true }, { headers: PRIVATE_HEADERS });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === FORGOT_PASSWORD_PATH;
  const failure = actionData && "error" in actionData ? actionData : null;

  return (
    <AuthShell
      title="Mot de passe oublié"
      description="Saisissez l'adresse e-mail de votre compte : vous recevrez un lien pour choisir un nouveau mot de passe."
      failure={failure}
      links={[{ to: "/auth", label: "← Retour à la connexion" }]}
    >
      {actionData && "sent" in actionData ? (
        <FormAlert variant="success" className="p-3 text-sm" title="Demande envoyée">
          <p>{RESET_MESSAGES.requested}</p>
        </FormAlert>
      ) : (
        <Form
          method="post"
          action={FORGOT_PASSWORD_PATH}
          className="space-y-4"
          aria-label="Mot de passe oublié"
        >
          <AuthEmailField defaultValue={failure?.values?.email} />
          <AuthSubmit busy={busy}>Recevoir le lien</AuthSubmit>
        </Form>
      )}
    </AuthShell>
  );
}
