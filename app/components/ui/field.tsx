import { cloneElement, type ReactElement, type ReactNode } from "react";
import { Checkbox } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import { cn } from "~/components/ui/cn";

/** A field's error message, referenced by its control's aria-describedby. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-sm text-destructive">
      {message}
    </p>
  ) : null;
}

export type FieldProps = {
  /** The control's id; the label points at it. */
  id: string;
  label: ReactNode;
  /** A hint under the control (`${id}-hint` unless descriptionId says otherwise). */
  description?: ReactNode;
  /** The server's message for this field (`${id}-error` unless errorId says otherwise). */
  error?: string;
  descriptionId?: string;
  errorId?: string;
  className?: string;
  /** One control (Input, Textarea, NativeSelect...): it receives id, aria-invalid and aria-describedby. */
  children: ReactElement;
};

/**
 * Label, control, hint and error of one form field, wired for screen readers: the control names
 * the error (first) and the hint it is described by, and says it is invalid while an error shows.
 */
export function Field({
  id,
  label,
  description,
  error,
  descriptionId = `${id}-hint`,
  errorId = `${id}-error`,
  className,
  children,
}: FieldProps) {
  const describedBy = [error ? errorId : "", description ? descriptionId : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div className={cn("space-y-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      {/* The control's own props win, as with Radix's Slot (not used here: nothing to merge). */}
      {cloneElement(children as ReactElement<Record<string, unknown>>, {
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy || undefined,
        ...(children.props as Record<string, unknown>),
      })}
      {description ? (
        <p id={descriptionId} className="text-xs text-muted-foreground">
          {description}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/**
 * A box the browser requires before the form is sent (an acceptance, a confirmation), its text in
 * the label and the server's message under it (`${id}-error`).
 */
export function RequiredCheckbox({
  id,
  name,
  error,
  children,
}: {
  id: string;
  name: string;
  error?: string;
  children: ReactNode;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1">
      <label className="flex items-start gap-2 text-sm">
        <Checkbox name={name} required aria-describedby={error ? errorId : undefined} />
        <span>{children}</span>
      </label>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
