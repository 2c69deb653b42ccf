import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { AUTH_LIMITS } from "~/lib/limits";

/**
 * One password input of the admin forms (account, new administrator). `current` is the password
 * in use (no minimum: it is only compared); `new` follows the rules of an administrator's password
 * and says so; `confirm` repeats a new one.
 */
export function PasswordField({
  id,
  name,
  label,
  kind,
  error,
}: {
  id: string;
  name: string;
  label: string;
  kind: "current" | "new" | "confirm";
  error?: string;
}) {
  return (
    <Field
      id={id}
      label={label}
      error={error}
      description={kind === "new" ? `${AUTH_LIMITS.passwordMin} caractères au moins.` : undefined}
    >
      <Input
        name={name}
        type="password"
        required
        autoComplete={kind === "current" ? "current-password" : "new-password"}
        minLength={kind === "current" ? undefined : AUTH_LIMITS.passwordMin}
        maxLength={AUTH_LIMITS.passwordMax}
      />
    </Field>
  );
}
