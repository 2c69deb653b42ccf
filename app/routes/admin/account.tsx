import { KeyRound } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import { PasswordField } from "~/components/admin/password-field";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-alert";
import { adminMeta } from "~/lib/admin-meta";
import { passwordChangeSchema } from "~/lib/credentials";
import { firstFieldError, type FieldErrors } from "~/lib/field-errors";
import { failureToast, useActionToast } from "~/hooks/use-action-toast";
import { useHydrated } from "~/hooks/use-hydrated";
import { changeOwnPassword, PRIVATE_HEADERS, requireAdmin } from "~/server/auth.server";
import { withFlash } from "~/server/flash.server";
import { readForm } from "~/server/form.server";
import { log } from "~/server/log.server";
import type { Route } from "./+types/account";
import { retryAfter } from "~/lib/http-headers";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Mon compte");

const FAILED = "Erreur lors du changement de mot de passe";

type PasswordField = "currentPassword" | "newPassword" | "confirmPassword";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "signed-in");
  return { email: user.email };
}

export type AccountActionData = {
  error: string;
  description?: string;
  fieldErrors: FieldErrors<PasswordField>;
};

function failure(
  status: number,
  description: string,
  fieldErrors: AccountActionData["fieldErrors"],
) {
  return data<AccountActionData>(
    { error: FAILED, description, fieldErrors },
    { status, headers: PRIVATE_HEADERS },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireAdmin(request, "signed-in");
  const submission = await readForm(request, passwordChangeSchema);
  if (!submission.success) {
    const { fieldErrors } = submission;
    return failure(400, firstFieldError(fieldErrors, FAILED), fieldErrors);
  }
  const result = await changeOwnPassword(session, submission.data);
  if (result.kind === "rate-limited") {
    const minutes = Math.max(1, Math.ceil(result.retryAfterSeconds / 60));
    return data<AccountActionData>(
      {
        error: FAILED,
        description: `Trop de tentatives. Veuillez réessayer dans ${minutes} minute${minutes > 1 ? "s" : ""}.`,
        fieldErrors: {},
      },
      {
        status: 429,
        headers: { ...PRIVATE_HEADERS, ...retryAfter(result.retryAfterSeconds) },
      },
    );
  }
  if (result.kind === "wrong-password") {
    const message = "Le mot de passe actuel est incorrect.";
    return failure(400, message, { currentPassword: message });
  }
  log.info("administrator password changed", {
    requestId: context.requestId,
    userId: session.user.id,
  });
  throw redirect("/admin/account", {
    headers: withFlash(request, "passwordChanged", PRIVATE_HEADERS),
  });
}

const FIELDS: { name: PasswordField; label: string; kind: "current" | "new" | "confirm" }[] = [
  { name: "currentPassword", label: "Mot de passe actuel *", kind: "current" },
  { name: "newPassword", label: "Nouveau mot de passe *", kind: "new" },
  { name: "confirmPassword", label: "Confirmation du nouveau mot de passe *", kind: "confirm" },
];

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const fieldErrors = actionData?.fieldErrors ?? {};

  useActionToast(actionData, failureToast);

  return (
    <div className="max-w-2xl space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">Mon compte</h1>
        <p className="text-muted-foreground">
          Connecté en tant que{" "}
          <span className="font-medium text-foreground">{loaderData.email}</span>
        </p>
      </div>

      {actionData?.error && !hydrated ? (
        <FormAlert title={actionData.error} description={actionData.description} />
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle as="h2">Changer le mot de passe</CardTitle>
          <CardDescription>
            Vos autres sessions (autres navigateurs ou appareils) seront déconnectées ; celle-ci
            reste ouverte.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {/* A failed attempt empties the fields: passwords are never sent back to the page. */}
          <Form
            method="post"
            action="/admin/account"
            className="space-y-5"
            aria-label="Changer le mot de passe"
            key={actionData ? JSON.stringify(actionData) : "form"}
          >
            {/* Lets password managers file the new password under the right account. */}
            <input
              type="text"
              name="username"
              autoComplete="username"
              value={loaderData.email}
              readOnly
              hidden
            />
            {FIELDS.map((field) => (
              <PasswordField
                key={field.name}
                id={`account-${field.name}`}
                name={field.name}
                label={field.label}
                kind={field.kind}
                error={fieldErrors[field.name]}
              />
            ))}
            <Button type="submit" disabled={busy}>
              <KeyRound aria-hidden="true" /> Changer le mot de passe
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
