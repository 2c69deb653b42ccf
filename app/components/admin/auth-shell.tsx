import { Loader2, Server } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { AUTH_LIMITS } from "~/lib/limits";
import type { ToastMessage } from "~/lib/admin-messages";

/**
 * The frame of the pages before sign-in (/auth, `Mot de passe oublié ?`, the new password): one
 * card under the area's name, the action's error in the page when it is not hydrated (the toast
 * says it otherwise), and the links below the card.
 */
export function AuthShell({
  title,
  description,
  error,
  links = [{ to: "/", label: "← Retour au site" }],
  children,
}: {
  title: string;
  description: React.ReactNode;
  /** The action's refusal, shown in the card when `showError` (no JavaScript). */
  error?: (ToastMessage & { show: boolean }) | null;
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
            {error?.show ? (
              <FormAlert
                className="mb-4 p-3 text-sm"
                title={error.title}
                description={error.description}
              />
            ) : null}
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
