import { Trash2, UserPlus } from "lucide-react";
import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigate, useNavigation } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { adminMeta } from "~/lib/admin-meta";
import { adminCredentialsSchema } from "~/lib/credentials";
import { formatDateTime, isoDate } from "~/lib/format";
import { AUTH_LIMITS } from "~/lib/limits";
import { useHydrated } from "~/hooks/use-hydrated";
import { PRIVATE_HEADERS, requireAdmin } from "~/server/auth.server";
import { withFlash } from "~/server/flash.server";
import { formText, parseId, readForm } from "~/server/form.server";
import { log } from "~/server/log.server";
import { addAdmin, listAdmins, removeAdmin } from "~/server/users.server";
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
} as const;

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request);
  const admins = await listAdmins();
  const removeId = parseId(new URL(request.url).searchParams.get("remove"));
  const pendingRemove = admins.find((a) => a.id === removeId && a.id !== user.id) ?? null;
  return { admins, currentUserId: user.id, pendingRemove };
}

export type UsersActionData = {
  intent: "add" | "remove" | null;
  error: string;
  description?: string;
  fieldErrors?: { email?: string; password?: string };
  email?: string;
};

function failure(status: number, body: UsersActionData) {
  return data(body, { status, headers: PRIVATE_HEADERS });
}

const intentSchema = z.enum(["add", "remove"]);

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireAdmin(request);
  const form = await readForm(request);
  const intent = intentSchema.safeParse(formText(form, "intent"));
  if (!intent.success) return failure(400, { intent: null, error: "Requête invalide" });

  if (intent.data === "add") {
    const email = formText(form, "email");
    const parsed = adminCredentialsSchema.safeParse({
      email,
      password: formText(form, "password"),
    });
    if (!parsed.success) {
      const fieldErrors: UsersActionData["fieldErrors"] = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as "email" | "password";
        fieldErrors[key] ??= issue.message;
      }
      return failure(400, {
        intent: "add",
        error: USER_MESSAGES.addFailed,
        description: Object.values(fieldErrors)[0],
        fieldErrors,
        email: email.slice(0, AUTH_LIMITS.email),
      });
    }
    const added = await addAdmin(parsed.data);
    if (added.kind === "duplicate") {
      return failure(409, {
        intent: "add",
        error: USER_MESSAGES.addFailed,
        description: USER_MESSAGES.duplicate,
        fieldErrors: { email: USER_MESSAGES.duplicate },
        email: parsed.data.email,
      });
    }
    log.info("administrator added", {
      requestId: context.requestId,
      userId: added.user.id,
      by: session.user.id,
    });
    throw redirect("/admin/users", { headers: withFlash(request, "adminAdded", PRIVATE_HEADERS) });
  }

  const id = parseId(formText(form, "id"));
  if (id === undefined) {
    return failure(400, {
      intent: "remove",
      error: USER_MESSAGES.removeFailed,
      description: USER_MESSAGES.missing,
    });
  }
  const { kind } = await removeAdmin(session.user.id, id);
  if (kind !== "removed") {
    return failure(kind === "missing" ? 404 : 409, {
      intent: "remove",
      error: USER_MESSAGES.removeFailed,
      description: USER_MESSAGES[kind],
    });
  }
  log.info("administrator removed", {
    requestId: context.requestId,
    userId: id,
    by: session.user.id,
  });
  throw redirect("/admin/users", { headers: withFlash(request, "adminRemoved", PRIVATE_HEADERS) });
}

function RemoveForm({ id, busy }: { id: number; busy: boolean }) {
  return (
    <Form method="post" action="/admin/users">
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="destructive" disabled={busy}>
        Supprimer
      </Button>
    </Form>
  );
}

export default function AdminUsers({ loaderData, actionData }: Route.ComponentProps) {
  const { admins, currentUserId, pendingRemove } = loaderData;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const addErrors = actionData?.intent === "add" ? (actionData.fieldErrors ?? {}) : {};

  useEffect(() => {
    if (actionData?.error) toast.error(actionData.error, { description: actionData.description });
  }, [actionData]);

  const closeDialog = () => navigate("/admin/users", { preventScrollReset: true, replace: true });

  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Administrateurs</h1>

      {actionData?.error && !hydrated ? (
        <div
          role="alert"
          className="rounded-md border border-destructive/50 bg-background p-4 text-destructive"
        >
          <p className="font-semibold">{actionData.error}</p>
          {actionData.description ? <p>{actionData.description}</p> : null}
        </div>
      ) : null}

      {pendingRemove && !hydrated ? (
        // Without JavaScript, the confirmation is a step of its own (?remove=ID).
        <section
          aria-labelledby="confirm-remove"
          className="space-y-4 rounded-lg border border-destructive/50 bg-background p-6"
        >
          <h2 id="confirm-remove" className="text-lg font-semibold">
            {USER_MESSAGES.removeConfirm}
          </h2>
          <p>{pendingRemove.email} ne pourra plus se connecter ; ses sessions seront fermées.</p>
          <div className="flex gap-3">
            <RemoveForm id={pendingRemove.id} busy={busy} />
            <Button asChild variant="outline">
              <Link to="/admin/users">Annuler</Link>
            </Button>
          </div>
        </section>
      ) : null}

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
                  Ajouté le{" "}
                  <time dateTime={isoDate(admin.createdAt)}>{formatDateTime(admin.createdAt)}</time>
                </p>
              </div>
              {admin.id !== currentUserId ? (
                <Button asChild variant="outline" size="sm">
                  <Link
                    to={`/admin/users?remove=${admin.id}`}
                    preventScrollReset
                    aria-label={`Supprimer l'administrateur ${admin.email}`}
                    className="text-destructive"
                  >
                    <Trash2 aria-hidden="true" /> Supprimer
                  </Link>
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Ajouter un administrateur</CardTitle>
          <CardDescription>
            Communiquez-lui le mot de passe initial par un canal sûr ; il pourra le changer dans «
            Mon compte ».
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Form
            method="post"
            action="/admin/users"
            className="grid gap-4 md:grid-cols-[1fr_1fr_auto] md:items-start"
            aria-label="Ajouter un administrateur"
          >
            <input type="hidden" name="intent" value="add" />
            <div className="space-y-2">
              <Label htmlFor="new-admin-email">Email *</Label>
              <Input
                id="new-admin-email"
                name="email"
                type="email"
                required
                autoComplete="off"
                maxLength={AUTH_LIMITS.email}
                defaultValue={actionData?.intent === "add" ? actionData.email : ""}
                aria-invalid={addErrors.email ? true : undefined}
                aria-describedby={addErrors.email ? "new-admin-email-error" : undefined}
              />
              {addErrors.email ? (
                <p id="new-admin-email-error" className="text-sm text-destructive">
                  {addErrors.email}
                </p>
              ) : null}
            </div>
            <div className="space-y-2">
              <Label htmlFor="new-admin-password">Mot de passe initial *</Label>
              <Input
                id="new-admin-password"
                name="password"
                type="password"
                required
                autoComplete="new-password"
                minLength={AUTH_LIMITS.passwordMin}
                maxLength={AUTH_LIMITS.passwordMax}
                aria-invalid={addErrors.password ? true : undefined}
                aria-describedby={
                  addErrors.password ? "new-admin-password-error" : "new-admin-password-hint"
                }
              />
              <p id="new-admin-password-hint" className="text-xs text-muted-foreground">
                {AUTH_LIMITS.passwordMin} caractères au moins.
              </p>
              {addErrors.password ? (
                <p id="new-admin-password-error" className="text-sm text-destructive">
                  {addErrors.password}
                </p>
              ) : null}
            </div>
            <Button type="submit" disabled={busy} className="md:mt-7">
              <UserPlus aria-hidden="true" /> Ajouter
            </Button>
          </Form>
        </CardContent>
      </Card>

      {hydrated ? (
        <Dialog
          open={pendingRemove !== null}
          onOpenChange={(open) => {
            if (!open) closeDialog();
          }}
        >
          {pendingRemove ? (
            <DialogContent>
              <DialogHeader>
                <DialogTitle>{USER_MESSAGES.removeConfirm}</DialogTitle>
                <DialogDescription>
                  {pendingRemove.email} ne pourra plus se connecter ; ses sessions seront fermées.
                </DialogDescription>
              </DialogHeader>
              <DialogFooter>
                <Button type="button" variant="outline" onClick={closeDialog}>
                  Annuler
                </Button>
                <RemoveForm id={pendingRemove.id} busy={busy} />
              </DialogFooter>
            </DialogContent>
          ) : null}
        </Dialog>
      ) : null}
    </div>
  );
}
