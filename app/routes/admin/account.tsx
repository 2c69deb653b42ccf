import { KeyRound } from "lucide-react";
import { useEffect } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { adminMeta } from "~/lib/admin-meta";
import { passwordChangeSchema } from "~/lib/credentials";
import { AUTH_LIMITS } from "~/lib/limits";
import { useHydrated } from "~/hooks/use-hydrated";
import { changeOwnPassword, PRIVATE_HEADERS, requireAdmin } from "~/server/auth.server";
import { withFlash } from "~/server/flash.server";
import { formText, readForm } from "~/server/form.server";
import { log } from "~/server/log.server";
import type { Route } from "./+types/account";
import { retryAfter } from "~/lib/http-headers";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Mon compte");

const FAILED = "Erreur lors du changement de mot de passe";

type PasswordField = "currentPassword" | "newPassword" | "confirmPassword";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request);
  return { email: user.email };
}

export type AccountActionData = {
  error: string;
  description?: string;
  fieldErrors: Partial<Record<PasswordField, string>>;
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
  const session = await requireAdmin(request);
  const form = await readForm(request);
  const parsed = passwordChangeSchema.safeParse({
    currentPassword: formText(form, "currentPassword"),
    newPassword: formText(form, "newPassword"),
    confirmPassword: formText(form, "confirmPassword"),
  });
  if (!parsed.success) {
    const fieldErrors: AccountActionData["fieldErrors"] = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as PasswordField;
      fieldErrors[key] ??= issue.message;
    }
    return failure(400, Object.values(fieldErrors)[0] ?? FAILED, fieldErrors);
  }
  const result = await changeOwnPassword(session, parsed.data);
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

const FIELDS: { name: PasswordField; label: string; autoComplete: string; hint?: string }[] = [
  { name: "currentPassword", label: "Mot de passe actuel *", autoComplete: "current-password" },
  {
    name: "newPassword",
    label: "Nouveau mot de passe *",
    autoComplete: "new-password",
    hint: `${AUTH_LIMITS.passwordMin} caractères au moins.`,
  },
  {
    name: "confirmPassword",
    label: "Confirmation du nouveau mot de passe *",
    autoComplete: "new-password",
  },
];

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const fieldErrors = actionData?.fieldErrors ?? {};

  useEffect(() => {
    if (actionData?.error) toast.error(actionData.error, { description: actionData.description });
  }, [actionData]);

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
        <div
          role="alert"
          className="rounded-md border border-destructive/50 bg-background p-4 text-destructive"
        >
          <p className="font-semibold">{actionData.error}</p>
          {actionData.description ? <p>{actionData.description}</p> : null}
        </div>
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
              <div key={field.name} className="space-y-2">
                <Label htmlFor={`account-${field.name}`}>{field.label}</Label>
                <Input
                  id={`account-${field.name}`}
                  name={field.name}
                  type="password"
                  required
                  autoComplete={field.autoComplete}
                  minLength={field.name === "currentPassword" ? undefined : AUTH_LIMITS.passwordMin}
                  maxLength={AUTH_LIMITS.passwordMax}
                  aria-invalid={fieldErrors[field.name] ? true : undefined}
                  aria-describedby={
                    fieldErrors[field.name]
                      ? `account-${field.name}-error`
                      : field.hint
                        ? `account-${field.name}-hint`
                        : undefined
                  }
                />
                {field.hint ? (
                  <p id={`account-${field.name}-hint`} className="text-xs text-muted-foreground">
                    {field.hint}
                  </p>
                ) : null}
                {fieldErrors[field.name] ? (
                  <p id={`account-${field.name}-error`} className="text-sm text-destructive">
                    {fieldErrors[field.name]}
                  </p>
                ) : null}
              </div>
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
