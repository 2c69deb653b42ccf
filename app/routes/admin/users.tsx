import { RemoveLink, RowActionForm } from "~/components/admin/row-actions";
import { UserPlus } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { PasswordField } from "~/features/accounts/password-field";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { SectionCard } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { Input, NativeSelect } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import { adminCredentialsSchema } from "~/features/accounts/credentials";
import { firstFieldError } from "~/lib/field-errors";
import { formatDateTime, isoDate } from "~/lib/format";
import { AUTH_LIMITS } from "~/lib/limits";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { confirmIdentity } from "~/features/accounts/own-credentials.server";
import {
  actionFailure,
  actionDone,
  idSchema,
  parseForm,
  parseId,
  readForm,
} from "~/platform/form.server";
import { ConfirmIdentity } from "~/features/accounts/confirm-identity";
import { identityAnswer } from "./confirm-identity.server";
import { log } from "~/platform/log.server";
import { addAdmin, changeRole, listUsers, removeAdmin } from "~/features/accounts/users.server";
import { resetSecondFactor } from "~/features/accounts/two-factor.server";
import { passwordPolicyProblem } from "~/features/accounts/password-policy.server";
import { ROLE_LABELS, ROLES } from "~/features/accounts/roles";
import type { FlashKey } from "~/lib/admin-messages";
import type { Route } from "./+types/users";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Administrateurs");

const USER_MESSAGES = {
  addFailed: "Erreur lors de l'ajout de l'administrateur",
  removeFailed: "Erreur lors de la suppression de l'administrateur",
  duplicate: "Un administrateur utilise déjà cette adresse e-mail.",
  self: "Vous ne pouvez pas supprimer votre propre compte.",
  last: "Le dernier administrateur ne peut pas être supprimé.",
  missing: "Cet administrateur n'existe plus.",
  removeConfirm: "Êtes-vous sûr de vouloir supprimer cet administrateur ?",
  roleFailed: "Erreur lors du changement de rôle",
  resetFailed: "Erreur lors de la réinitialisation de la double authentification",
  roleSelf: "Vous ne pouvez pas changer votre propre rôle.",
} as const;

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "admin");
  const admins = await listUsers();
  const removeId = parseId(new URL(request.url).searchParams.get("remove"));
  const pendingRemove = admins.find((a) => a.id === removeId && a.id !== user.id) ?? null;
  return { admins, currentUserId: user.id, pendingRemove };
}

const roleSchema = z.enum(ROLES, { error: "Rôle non valide." });

const usersFormSchema = z.discriminatedUnion("intent", [
  adminCredentialsSchema.extend({ intent: z.literal("add"), role: roleSchema.optional() }),
  z.object({ intent: z.literal("remove"), id: idSchema.optional().catch(undefined) }),
  z.object({ intent: z.literal("reset-2fa"), id: idSchema.optional().catch(undefined) }),
  z.object({
    intent: z.literal("role"),
    id: idSchema.optional().catch(undefined),
    role: roleSchema.optional().catch(undefined),
  }),
]);

const failure = actionFailure<"email" | "password">;

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireAdmin(request, "admin");
  const form = await readForm(request);
  const submission = parseForm(form, usersFormSchema);
  const { values } = submission;
  if (!["add", "remove", "role", "reset-2fa"].includes(values.intent)) {
    return failure(400, { intent: null, error: "Requête invalide" });
  }
  if (!submission.success) {
    // Only the new administrator's fields can be refused (a bad id reads as no id).
    const { fieldErrors } = submission;
    return failure(400, {
      intent: "add",
      error: USER_MESSAGES.addFailed,
      description: firstFieldError(fieldErrors, USER_MESSAGES.addFailed),
      fieldErrors,
      values: { email: values.email.slice(0, AUTH_LIMITS.email) },
    });
  }
  const input = submission.data;
  /** Who changes what, for the journal entry each command writes with its change. */
  const change = { context, actor: session.user };
  /** A change made (and journaled with it): logged with who made it, then back to the list. */
  const done = (made: {
    log: [message: string, fields: Record<string, unknown>];
    flash: FlashKey;
  }): Promise<never> => {
    const [message, fields] = made.log;
    log.info(message, { requestId: context.requestId, ...fields, by: session.user.id });
    return actionDone(request, context, made.flash, "/admin/users", null);
  };
  // Every change of this page is sensitive: `Confirmez votre identité` unless recently done.
  const unconfirmed = identityAnswer(await confirmIdentity(session, form), form);
  if (unconfirmed) return unconfirmed;

  if (input.intent === "add") {
    const weak = passwordPolicyProblem(input.password, input.email);
    if (weak) {
      return failure(400, {
        intent: "add",
        error: USER_MESSAGES.addFailed,
        description: weak,
        fieldErrors: { password: weak },
        values: { email: input.email },
      });
    }
    const added = await addAdmin(
      { email: input.email, password: input.password, role: input.role ?? "admin" },
      change,
    );
    if (added.kind === "duplicate") {
      return failure(409, {
        intent: "add",
        error: USER_MESSAGES.addFailed,
        description: USER_MESSAGES.duplicate,
        fieldErrors: { email: USER_MESSAGES.duplicate },
        values: { email: input.email },
      });
    }
    return done({
      log: ["administrator added", { userId: added.user.id }],
      flash: "adminAdded",
    });
  }

  if (input.intent === "reset-2fa") {
    const { id } = input;
    const result =
      id === undefined ? { kind: "missing" as const } : await resetSecondFactor(id, change);
    if (result.kind === "missing") {
      return failure(404, {
        intent: "reset-2fa",
        error: USER_MESSAGES.resetFailed,
        description: USER_MESSAGES.missing,
      });
    }
    return done({
      log: ["second factor reset", { userId: id }],
      flash: "secondFactorReset",
    });
  }

  if (input.intent === "role") {
    const { id, role } = input;
    if (id === undefined || role === undefined) {
      return failure(400, {
        intent: "role",
        error: USER_MESSAGES.roleFailed,
        description: id === undefined ? USER_MESSAGES.missing : "Rôle non valide.",
      });
    }
    const changed = await changeRole(id, role, change);
    if (changed.kind === "self" || changed.kind === "last" || changed.kind === "missing") {
      return failure(changed.kind === "missing" ? 404 : 409, {
        intent: "role",
        error: USER_MESSAGES.roleFailed,
        description: USER_MESSAGES[changed.kind === "self" ? "roleSelf" : changed.kind],
      });
    }
    return done({
      log: ["administrator role changed; its sessions ended", { userId: id, role }],
      flash: "roleChanged",
    });
  }

  const { id } = input;
  if (id === undefined) {
    return failure(400, {
      intent: "remove",
      error: USER_MESSAGES.removeFailed,
      description: USER_MESSAGES.missing,
    });
  }
  const { kind } = await removeAdmin(id, change);
  if (kind !== "removed") {
    return failure(kind === "missing" ? 404 : 409, {
      intent: "remove",
      error: USER_MESSAGES.removeFailed,
      description: USER_MESSAGES[kind],
    });
  }
  return done({
    log: ["administrator removed", { userId: id }],
    flash: "adminRemoved",
  });
}

function RoleOptions() {
  return ROLES.map((role) => (
    <option key={role} value={role}>
      {ROLE_LABELS[role]}
    </option>
  ));
}

export default function AdminUsers({ loaderData, actionData: answer }: Route.ComponentProps) {
  const reauth = answer && "reauth" in answer ? answer.reauth : undefined;
  const actionData = answer && !("reauth" in answer) ? answer : undefined;
  const { admins, currentUserId, pendingRemove } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const addErrors = actionData?.intent === "add" ? (actionData.fieldErrors ?? {}) : {};

  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Administrateurs</h1>

      {reauth ? (
        <ConfirmIdentity action="/admin/users" reauth={reauth} cancelTo="/admin/users" />
      ) : null}

      <ActionFailureAlert answer={actionData} />

      {/* Opened by the list's links (?remove=ID). */}
      <ConfirmDialog
        open={pendingRemove !== null}
        id="confirm-remove"
        title={USER_MESSAGES.removeConfirm}
        description={`${pendingRemove?.email} ne pourra plus se connecter ; ses sessions seront fermées.`}
        action="/admin/users"
        fields={{ intent: "remove", id: pendingRemove?.id ?? "" }}
        confirmLabel="Supprimer"
        cancelTo="/admin/users"
      />

      <section aria-labelledby="admin-list" className="space-y-4">
        <h2 id="admin-list" className="text-xl font-semibold">
          Liste des administrateurs
        </h2>
        <ul className="divide-y rounded-lg border bg-card">
          {admins.map((admin) => (
            <li key={admin.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="min-w-0 space-y-1">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="break-all">{admin.email}</span>
                  {admin.id === currentUserId ? <Badge variant="secondary">Vous</Badge> : null}
                </p>
                <p className="text-sm text-muted-foreground">
                  {ROLE_LABELS[admin.role]}
                  {admin.secondFactor ? " · double authentification activée" : ""} · Ajouté le{" "}
                  <time dateTime={isoDate(admin.createdAt)}>{formatDateTime(admin.createdAt)}</time>
                </p>
              </div>
              {admin.id !== currentUserId ? (
                <Form
                  method="post"
                  action="/admin/users"
                  className="flex flex-wrap items-center gap-2"
                  aria-label={`Rôle de ${admin.email}`}
                >
                  <input type="hidden" name="intent" value="role" />
                  <input type="hidden" name="id" value={admin.id} />
                  <label htmlFor={`role-${admin.id}`} className="sr-only">
                    Rôle
                  </label>
                  <NativeSelect
                    id={`role-${admin.id}`}
                    name="role"
                    defaultValue={admin.role}
                    className="w-44"
                  >
                    <RoleOptions />
                  </NativeSelect>
                  <Button type="submit" variant="outline" size="sm" disabled={busy}>
                    Changer le rôle
                  </Button>
                </Form>
              ) : null}
              {admin.id !== currentUserId && admin.secondFactor ? (
                <RowActionForm
                  action="/admin/users"
                  intent="reset-2fa"
                  id={admin.id}
                  disabled={busy}
                  label={`Réinitialiser la double authentification de ${admin.email}`}
                >
                  Réinitialiser la double authentification
                </RowActionForm>
              ) : null}
              {admin.id !== currentUserId ? (
                <RemoveLink
                  to={`/admin/users?remove=${admin.id}`}
                  label={`Supprimer l'administrateur ${admin.email}`}
                />
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      <SectionCard
        title="Ajouter un administrateur"
        description="Communiquez-lui le mot de passe initial par un canal sûr ; il pourra le changer dans « Mon compte »."
      >
        <Form
          method="post"
          action="/admin/users"
          className="grid gap-4 md:grid-cols-[1fr_auto_1fr_auto] md:items-start"
          aria-label="Ajouter un administrateur"
        >
          <input type="hidden" name="intent" value="add" />
          <Field id="new-admin-email" label="Email *" error={addErrors.email}>
            <Input
              name="email"
              type="email"
              required
              autoComplete="off"
              maxLength={AUTH_LIMITS.email}
              defaultValue={actionData?.intent === "add" ? actionData.values?.email : ""}
            />
          </Field>
          <Field id="new-admin-role" label="Rôle *">
            <NativeSelect name="role" defaultValue="admin">
              <RoleOptions />
            </NativeSelect>
          </Field>
          <PasswordField
            id="new-admin-password"
            name="password"
            label="Mot de passe initial *"
            kind="new"
            error={addErrors.password}
          />
          <Button type="submit" disabled={busy} className="md:mt-7">
            <UserPlus aria-hidden="true" /> Ajouter
          </Button>
        </Form>
      </SectionCard>
    </div>
  );
}
