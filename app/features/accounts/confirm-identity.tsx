import { ShieldCheck } from "lucide-react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Input } from "~/components/ui/input";
import { AUTH_LIMITS } from "~/lib/limits";

/** What the page needs to ask: the fields of what was asked (posted again), and whether a code is due. */
export type ReauthRequest = {
  fields: Record<string, string>;
  secondFactor: boolean;
  error?: string;
};

/**
 * `Confirmez votre identité`: the password (and a code when enrolled), with what was asked in
 * hidden fields, posted to `action`, which carries on once the identity is confirmed.
 */
export function ConfirmIdentity({
  action,
  reauth,
  cancelTo,
  title = "Confirmez votre identité",
}: {
  title?: string;
  action: string;
  reauth: ReauthRequest;
  cancelTo: string;
}) {
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle as="h2" id="confirm-identity-title">
          {title}
        </CardTitle>
        <CardDescription>
          Cette action est sensible : saisissez à nouveau votre mot de passe
          {reauth.secondFactor ? " et un code à 6 chiffres" : ""} pour continuer.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {reauth.error ? <FormAlert title={reauth.error} /> : null}
        <Form
          method="post"
          action={action}
          className="space-y-4"
          aria-labelledby="confirm-identity-title"
        >
          {Object.entries(reauth.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <Field id="reauth-password" label="Mot de passe">
            <Input
              name="reauthPassword"
              type="password"
              required
              autoComplete="current-password"
              maxLength={AUTH_LIMITS.passwordMax}
              autoFocus
            />
          </Field>
          {reauth.secondFactor ? (
            <Field
              id="reauth-code"
              label="Code à 6 chiffres"
              description="Ou l'un de vos codes de secours."
            >
              <Input name="reauthCode" required autoComplete="one-time-code" maxLength={40} />
            </Field>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Button type="submit">
              <ShieldCheck aria-hidden="true" /> Confirmer
            </Button>
            <Button asChild variant="outline">
              <Link to={cancelTo}>Annuler</Link>
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
