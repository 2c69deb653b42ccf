import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AuthShell, AuthSubmit } from "~/features/accounts/auth-shell";
import { PasswordField } from "~/features/accounts/password-field";
import { FormAlert } from "~/components/ui/form-alert";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { firstFieldError, type FieldErrors } from "~/lib/field-errors";
import {
  FORGOT_PASSWORD_PATH,
  RESET_MESSAGES,
  RESET_PASSWORD_PATH,
} from "~/features/accounts/password-reset";
import { resetPasswordSchema, resetTokenSchema } from "~/features/accounts/password-reset-schema";
import { clearSessionCookie, PRIVATE_HEADERS } from "~/features/accounts/auth.server";
import { withFlash } from "~/platform/flash.server";
import { actionFailure, readForm } from "~/platform/form.server";
import { retryAfter, SECRET_LINK_HEADERS } from "~/lib/http-headers";
import { HASHING_LIMITS, HashingBusyError } from "~/features/accounts/password.server";
import { log } from "~/platform/log.server";
import { completePasswordReset, findUsableReset } from "~/features/accounts/password-reset.server";
import type { Route } from "./+types/reset-password";

// The page of a mailed link (issue 20): a new password, twice, under the password policy. It
// ends every session of the account and signs nobody in: /auth asks the password, then the code.

// The link's token is in this page's address.
export const headers: Route.HeadersFunction = () => SECRET_LINK_HEADERS;

export const meta: Route.MetaFunction = () => [
  { title: "Nouveau mot de passe — Espace Administrateur" },
  { name: "robots", content: "noindex, nofollow" },
];

type LinkState =
  | { valid: true; token: string; email: string }
  | { valid: false; token?: undefined; email?: undefined };

const INVALID: LinkState = { valid: false };

async function linkState(token: string | undefined): Promise<LinkState> {
  const parsed = resetTokenSchema.safeParse(token);
  if (!parsed.success) return INVALID;
  const reset = await findUsableReset(parsed.data);
  return reset ? { valid: true, token: parsed.data, email: reset.user.email } : INVALID;
}

export async function loader({ request }: Route.LoaderArgs) {
  const state = await linkState(new URL(request.url).searchParams.get("token") ?? undefined);
  return data(state, { status: state.valid ? 200 : 410, headers: PRIVATE_HEADERS });
}

type ResetField = "newPassword" | "confirmPassword" | "token";

const FAILED = "Mot de passe non modifié";

function failure(status: number, description: string, fieldErrors: FieldErrors<ResetField> = {}) {
  return actionFailure(status, { error: FAILED, description, fieldErrors });
}

/** The link's token is refused: the page says so instead of the form. */
const invalidLink = () =>
  failure(410, RESET_MESSAGES.invalidLink, { token: RESET_MESSAGES.invalidLink });

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await readForm(request, resetPasswordSchema);
  const token = resetTokenSchema.safeParse(submission.values.token);
  if (!token.success || !(await findUsableReset(token.data))) return invalidLink();
  if (!submission.success) {
    const { fieldErrors } = submission;
    return failure(400, firstFieldError(fieldErrors, FAILED), fieldErrors);
  }
  let result;
  try {
    // The change and its journal entry are one transaction.
    result = await completePasswordReset(token.data, submission.data.newPassword, context);
  } catch (error) {
    if (error instanceof HashingBusyError) {
      const headers = retryAfter(HASHING_LIMITS.retryAfterSeconds);
      return actionFailure(
        503,
        { error: FAILED, description: ADMIN_MESSAGES.hashingBusy },
        headers,
      );
    }
    log.error("password reset failed", { requestId: context.requestId, error });
    return failure(503, ADMIN_MESSAGES.unexpected.description);
  }
  if (result.kind === "invalid-link") return invalidLink();
  if (result.kind === "weak") return failure(400, result.message, { newPassword: result.message });
  log.info("password reset through a mailed link; every session ended", {
    requestId: context.requestId,
    userId: result.user.id,
    sessionsEnded: result.sessionsEnded,
  });
  const headers = withFlash(request, "passwordReset", PRIVATE_HEADERS);
  headers.append("Set-Cookie", clearSessionCookie(request));
  throw redirect("/auth", { headers });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" && navigation.formAction?.startsWith(RESET_PASSWORD_PATH);
  const errors = actionData?.fieldErrors ?? {};

  if (!loaderData.valid || errors.token) {
    return (
      <AuthShell
        title="Lien non valable"
        description="Ce lien ne permet plus de choisir un nouveau mot de passe."
        links={[{ to: "/auth", label: "← Retour à la connexion" }]}
      >
        <FormAlert className="p-3 text-sm" title="Lien expiré ou déjà utilisé">
          <p>{RESET_MESSAGES.invalidLink}</p>
        </FormAlert>
        <p className="mt-4 text-center text-sm">
          <Link to={FORGOT_PASSWORD_PATH} className="underline hover:text-primary">
            Demander un nouveau lien
          </Link>
        </p>
      </AuthShell>
    );
  }
  const action = `${RESET_PASSWORD_PATH}?token=${encodeURIComponent(loaderData.token)}`;
  return (
    <AuthShell
      title="Nouveau mot de passe"
      description={`Choisissez le nouveau mot de passe du compte ${loaderData.email}. Toutes ses sessions seront fermées.`}
      failure={actionData}
      links={[{ to: "/auth", label: "← Retour à la connexion" }]}
    >
      <Form method="post" action={action} className="space-y-4" aria-label="Nouveau mot de passe">
        <input type="hidden" name="token" value={loaderData.token} />
        <PasswordField
          id="reset-newPassword"
          name="newPassword"
          label="Nouveau mot de passe"
          kind="new"
          error={errors.newPassword}
        />
        <PasswordField
          id="reset-confirmPassword"
          name="confirmPassword"
          label="Confirmer le nouveau mot de passe"
          kind="confirm"
          error={errors.confirmPassword}
        />
        <AuthSubmit busy={Boolean(busy)}>Enregistrer le mot de passe</AuthSubmit>
      </Form>
    </AuthShell>
  );
}
