import { ShieldCheck } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Input } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import { firstFieldError } from "~/lib/field-errors";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import {
  PRIVATE_HEADERS,
  requireAdmin,
  secondFactorRequired,
  TWO_FACTOR_PATH,
} from "~/features/accounts/auth.server";
import { enrolSecondFactor } from "~/features/accounts/own-credentials.server";
import { actionFailure, readForm } from "~/platform/form.server";
import { log } from "~/platform/log.server";
import { siteConfig } from "~/platform/site.server";
import { groupKey, startEnrolment } from "~/features/accounts/two-factor.server";
import { knownDeviceCookie } from "~/features/accounts/known-device.server";
import { PasswordField } from "~/features/accounts/password-field";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { retryAfter } from "~/lib/http-headers";
import { AUTH_LIMITS } from "~/lib/limits";
import type { FieldErrors } from "~/lib/field-errors";
import type { Route } from "./+types/two-factor";

// `Activer la double authentification` (issue 20): the QR code and the key, a code to confirm,
// then the 10 recovery codes, shown once. Without JavaScript too (plain forms, no client script).

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Double authentification");

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "signed-in", { setup: TWO_FACTOR_PATH });
  // Enrolled: the page only shows the recovery codes the action just gave (or that it is on).
  if (session.secondFactor) return { enrolled: true as const, required: secondFactorRequired() };
  const enrolment = await startEnrolment(session.user, siteConfig().name);
  return {
    enrolled: false as const,
    required: secondFactorRequired(),
    qrCode: enrolment.qrCode,
    key: groupKey(enrolment.key),
  };
}

const FAILED = "Erreur lors de l'activation de la double authentification";

const enrolSchema = z.object({
  currentPassword: z
    .string()
    .min(1, "Saisissez votre mot de passe actuel.")
    .max(AUTH_LIMITS.passwordMax, "Le mot de passe actuel est incorrect."),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Saisissez le code à 6 chiffres affiché par votre application."),
});

type EnrolField = "currentPassword" | "code";

const WRONG_PASSWORD = "Le mot de passe actuel est incorrect.";

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireAdmin(request, "signed-in", { setup: TWO_FACTOR_PATH });
  const submission = await readForm(request, enrolSchema);
  const refuse = (
    status: number,
    description: string,
    fieldErrors?: FieldErrors<EnrolField>,
    headers?: HeadersInit,
  ) => actionFailure<EnrolField>(status, { error: FAILED, description, fieldErrors }, headers);
  if (!submission.success) {
    const { fieldErrors } = submission;
    return refuse(400, firstFieldError(fieldErrors, FAILED), fieldErrors);
  }
  // The password again (issue 28), then the code; the change and its journal entry together.
  const result = await enrolSecondFactor(session, submission.data, context);
  if (result.kind === "rate-limited") {
    return refuse(
      429,
      ADMIN_MESSAGES.tooManyAttempts(result.retryAfterSeconds),
      undefined,
      retryAfter(result.retryAfterSeconds),
    );
  }
  if (result.kind === "wrong-password") {
    return refuse(400, WRONG_PASSWORD, { currentPassword: WRONG_PASSWORD });
  }
  if (result.kind === "missing") {
    return refuse(409, "La double authentification est déjà activée ou la clé a changé.");
  }
  if (result.kind === "wrong-code") {
    const message = "Code incorrect : vérifiez l'heure de votre téléphone et réessayez.";
    return refuse(400, message, { code: message });
  }
  log.info("second factor enabled; the account's other sessions ended", {
    requestId: context.requestId,
    userId: session.user.id,
  });
  // Shown once, on this answer: the page's own success, not a redirect. This browser proved the
  // code: it is a known device of the account from now on.
  const headers = new Headers(PRIVATE_HEADERS);
  headers.append("Set-Cookie", knownDeviceCookie(request, result.knownDevice));
  return data({ recoveryCodes: result.recoveryCodes }, { headers });
}

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";

  if (actionData && "recoveryCodes" in actionData) {
    return <RecoveryCodes codes={actionData.recoveryCodes} />;
  }
  const failure = actionData && "error" in actionData ? actionData : undefined;
  return (
    <div className="max-w-2xl space-y-8">
      <h1 className="text-3xl font-bold">Double authentification</h1>
      <ActionFailureAlert answer={actionData} />
      {loaderData.enrolled ? (
        <FormAlert variant="success" title="La double authentification est activée.">
          <Link to="/admin/account" className="underline underline-offset-4">
            Retour à Mon compte
          </Link>
        </FormAlert>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Activer la double authentification</CardTitle>
            <CardDescription>
              {loaderData.required
                ? "Votre compte doit être protégé par un second facteur avant d'ouvrir l'administration. "
                : null}
              Scannez ce QR code avec une application d'authentification (Aegis, FreeOTP, Google
              Authenticator…), puis saisissez le code qu'elle affiche.
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <img
              src={loaderData.qrCode}
              alt="QR code de la double authentification"
              width={200}
              height={200}
              className="rounded-md border bg-white p-2"
            />
            <div className="space-y-1">
              <p className="text-sm text-muted-foreground">
                Ou saisissez cette clé dans l'application :
              </p>
              <p className="font-mono text-lg tracking-wider" data-testid="totp-key">
                <span className="sr-only">Clé : </span>
                {loaderData.key}
              </p>
            </div>
            <Form
              method="post"
              className="flex flex-wrap items-end gap-4"
              aria-label="Confirmer la double authentification"
            >
              <PasswordField
                id="totp-current-password"
                name="currentPassword"
                label="Mot de passe actuel"
                kind="current"
                error={failure?.fieldErrors?.currentPassword}
              />
              <Field
                id="totp-code"
                label="Code à 6 chiffres"
                className="w-48"
                error={failure?.fieldErrors?.code}
              >
                <Input
                  name="code"
                  required
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  maxLength={6}
                />
              </Field>
              <Button type="submit" disabled={busy}>
                <ShieldCheck aria-hidden="true" /> Activer
              </Button>
            </Form>
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="max-w-2xl space-y-6">
      <h1 className="text-3xl font-bold">Double authentification activée</h1>
      <Card>
        <CardHeader>
          <CardTitle as="h2" id="recovery-title">
            Codes de secours
          </CardTitle>
          <CardDescription>
            Notez ces codes et gardez-les en lieu sûr : ils ne seront plus jamais affichés. Chacun
            remplace une fois le code à 6 chiffres si vous perdez votre téléphone.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <ul aria-labelledby="recovery-title" className="grid gap-2 font-mono sm:grid-cols-2">
            {codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
          <Button asChild>
            <Link to="/admin/account">J'ai noté mes codes</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
