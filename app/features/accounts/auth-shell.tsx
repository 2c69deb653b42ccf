import { Loader2, Server } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { AUTH_LIMITS } from "~/lib/limits";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import type { ActionFailure } from "~/lib/field-errors";

/**
 * The frame of the pages before sign-in (/auth, `Mot de passe oublié ?`, the new password): one
 * card under the area's name, the action's refusal (a toast, or in the card when not hydrated),
 * and the links below the card.
 */
export function AuthShell({
  title,
  description,
  failure,
  links = [{ to: "/", label: "← Retour au site" }],
  children,
}: {
  title: string;
  description: React.ReactNode;
  /** The action's refusal. */
  failure?: ActionFailure | null;
  links?: { to: string; label: string }[];
  children: React.ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <div className="w-full max-w-md space-y-6">
        <div className="flex flex-col items-center gap-2 text-center">
          <Server className="size-10 text-primary" aria-hidden="true" />
          <h1 className="text-2xl font-bold">Espace Administrateur</h1>
        </div>
        <Card>
          <CardHeader>
            <CardTitle as="h2">{title}</CardTitle>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>
            <ActionFailureAlert answer={failure} className="mb-4 p-3 text-sm" />
            {children}
          </CardContent>
        </Card>
        {links.map((link) => (
          <p key={link.to} className="text-center">
            <Link to={link.to} className="text-sm text-muted-foreground hover:text-primary">
              {link.label}
            </Link>
          </p>
        ))}
      </div>
    </main>
  );
}

/** The card's submit button, full width, with a spinner while the form is being sent. */
export function AuthSubmit({ busy, children }: { busy: boolean; children: React.ReactNode }) {
  return (
    <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
      {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
      {children}
    </Button>
  );
}

/** The account's e-mail, as the browser's password manager knows it (`username`). */
export function AuthEmailField({ defaultValue }: { defaultValue?: string }) {
  return (
    <Field id="email" label="Email">
      <Input
        name="email"
        type="email"
        required
        autoComplete="username"
        maxLength={AUTH_LIMITS.email}
        defaultValue={defaultValue}
      />
    </Field>
  );
}
