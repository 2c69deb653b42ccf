import { KeyRound, ShieldCheck } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { PasswordField } from "~/features/accounts/password-field";
import { Button } from "~/components/ui/button";
import { SectionCard } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-alert";
import { adminMeta } from "~/routes/admin/meta";
import { passwordChangeSchema } from "~/features/accounts/credentials";
import { firstFieldError, type FieldErrors } from "~/lib/field-errors";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import {
  PRIVATE_HEADERS,
  requireAdmin,
  type AdminSession,
  PASSWORD_CHANGE_PATH,
} from "~/features/accounts/auth.server";
import { changeOwnPassword } from "~/features/accounts/own-credentials.server";
import {
  actionFailure,
  actionDone,
  idSchema,
  parseForm,
  readForm,
  type Submission,
} from "~/platform/form.server";
import { listUserSessions, revokeUserSession } from "~/features/accounts/sessions.server";
import { unusedRecoveryCodes } from "~/features/accounts/two-factor.server";
import { passwordPolicyProblem } from "~/features/accounts/password-policy.server";
import { describeUserAgent } from "~/features/accounts/user-agent";
import { formatDateTime, isoDate } from "~/lib/format";
import { z } from "zod";
import { log } from "~/platform/log.server";
import type { Route } from "./+types/account";
import { retryAfter } from "~/lib/http-headers";
import { retryInMinutes } from "~/lib/messages";
import { countRefusal } from "~/platform/metrics.server";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Mon compte");

const FAILED = "Erreur lors du changement de mot de passe";

type PasswordField = "currentPassword" | "newPassword" | "confirmPassword";

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "signed-in", { setup: PASSWORD_CHANGE_PATH });
  const open = await listUserSessions(session.user.id);
  return {
    email: session.user.email,
    mustChangePassword: session.mustChangePassword,
    secondFactor: session.secondFactor
      ? { recoveryCodesLeft: await unusedRecoveryCodes(session.user.id) }
      : null,
    sessions: open.map((row) => ({
      id: row.publicId,
      browser: describeUserAgent(row.userAgent),
      ip: row.ip ?? "adresse inconnue",
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      current: row.idHash === session.idHash,
    })),
  };
}

function failure(status: number, description: string, fieldErrors: FieldErrors<PasswordField>) {
  return actionFailure(status, { error: FAILED, description, fieldErrors });
}

const revokeSchema = z.object({ id: idSchema.optional().catch(undefined) });

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireAdmin(request, "signed-in", { setup: PASSWORD_CHANGE_PATH });
  const form = await readForm(request);
  // The password form posts no intent (it came first); the others name theirs.
  const intent = form.get("intent") ?? "password";
  if (intent === "revoke") return revoke(request, context, session, parseForm(form, revokeSchema));
  if (intent !== "password") {
    return actionFailure(400, { error: "Requête invalide" });
  }
  const submission = parseForm(form, passwordChangeSchema);
  if (!submission.success) {
    const { fieldErrors } = submission;
    return failure(400, firstFieldError(fieldErrors, FAILED), fieldErrors);
  }
  const weak = passwordPolicyProblem(submission.data.newPassword, session.user.email);
  if (weak) return failure(400, weak, { newPassword: weak });
  // The change, the end of the other sessions and the journal entry: one transaction.
  const result = await changeOwnPassword(session, submission.data, context);
  if (result.kind === "rate-limited") {
    countRefusal("password-change");
    return actionFailure(
      429,
      {
        error: FAILED,
        description: `Trop de tentatives. ${retryInMinutes(result.retryAfterSeconds)}`,
      },
      retryAfter(result.retryAfterSeconds),
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
  return actionDone(request, context, "passwordChanged", "/admin/account", null);
}

async function revoke(
  request: Request,
  context: { requestId: string; clientIp: string },
  session: AdminSession,
  submission: Submission<typeof revokeSchema>,
) {
  const id = submission.success ? submission.data.id : undefined;
  const result =
    id === undefined ? { kind: "missing" as const } : await revokeUserSession(session.user.id, id);
  if (result.kind === "missing") {
    return actionFailure(404, {
      intent: "revoke",
      error: REVOKE_FAILED,
      description: "Cette session est déjà fermée.",
    });
  }
  log.info("session revoked", { requestId: context.requestId, userId: session.user.id });
  // Revoking the session in use is signing out here too: the next page asks to sign in.
  return actionDone(request, context, "sessionRevoked", "/admin/account", {
    actor: session.user,
    action: "session-revoked",
    target: `session ${id}`,
  });
}

const REVOKE_FAILED = "Erreur lors de la révocation de la session";

const FIELDS: { name: PasswordField; label: string; kind: "current" | "new" | "confirm" }[] = [
  { name: "currentPassword", label: "Mot de passe actuel *", kind: "current" },
  { name: "newPassword", label: "Nouveau mot de passe *", kind: "new" },
  { name: "confirmPassword", label: "Confirmation du nouveau mot de passe *", kind: "confirm" },
];

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const fieldErrors = actionData?.fieldErrors ?? {};

  return (
    <div className="max-w-2xl space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">Mon compte</h1>
        <p className="text-muted-foreground">
          Connecté en tant que{" "}
          <span className="font-medium text-foreground">{loaderData.email}</span>
        </p>
      </div>

      <ActionFailureAlert answer={actionData} />

      {loaderData.mustChangePassword ? (
        <FormAlert
          title="Choisissez votre mot de passe"
          description="Votre mot de passe a été choisi par quelqu'un d'autre : remplacez-le avant de continuer."
        />
      ) : null}

      <SectionCard
        title="Changer le mot de passe"
        description="Vos autres sessions (autres navigateurs ou appareils) seront déconnectées ; celle-ci reste ouverte."
      >
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
      </SectionCard>

      <SecondFactorCard state={loaderData.secondFactor} />

      <SessionsCard sessions={loaderData.sessions} busy={busy} />
    </div>
  );
}

function SecondFactorCard({ state }: { state: { recoveryCodesLeft: number } | null }) {
  return (
    <SectionCard
      title="Double authentification"
      description={
        state
          ? `Activée : un code à 6 chiffres est demandé après le mot de passe. Codes de secours restants : ${state.recoveryCodesLeft}.`
          : "Un code à 6 chiffres, donné par une application sur votre téléphone, sera demandé après le mot de passe."
      }
    >
      {state ? null : (
        <Button asChild>
          <Link to="/admin/account/2fa">
            <ShieldCheck aria-hidden="true" /> Activer la double authentification
          </Link>
        </Button>
      )}
    </SectionCard>
  );
}

function SessionsCard({
  sessions,
  busy,
}: {
  sessions: Route.ComponentProps["loaderData"]["sessions"];
  busy: boolean;
}) {
  return (
    <SectionCard
      title="Sessions ouvertes"
      description="Les navigateurs connectés à votre compte. Révoquez celles que vous ne reconnaissez pas."
    >
      <ul className="divide-y" aria-label="Sessions ouvertes">
        {sessions.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0 space-y-1 text-sm">
              <p className="font-medium">
                {item.browser}
                {item.current ? " · cette session" : ""}
              </p>
              <p className="text-muted-foreground">
                {item.ip} · dernière activité le{" "}
                <time dateTime={isoDate(item.lastSeenAt)}>{formatDateTime(item.lastSeenAt)}</time>
              </p>
            </div>
            <Form method="post" action="/admin/account">
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="id" value={item.id} />
              <Button
                type="submit"
                variant="outline"
                size="sm"
                disabled={busy}
                aria-label={`Révoquer la session ${item.browser} (${item.ip})`}
              >
                Révoquer
              </Button>
            </Form>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}
