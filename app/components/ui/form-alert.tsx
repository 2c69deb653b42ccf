import type * as React from "react";
import { cn } from "~/components/ui/cn";

export type FormAlertProps = Omit<React.ComponentProps<"div">, "title"> & {
  /** Bold first line; children follow it (or stand alone, for a one-line message). */
  title?: React.ReactNode;
  description?: React.ReactNode;
  variant?: "error" | "success";
};

/**
 * What a form's action answered, inside the page: the message a toast gives with JavaScript, for
 * pages rendered without it (and for messages that must stay on screen). An error is an alert, a
 * success a status.
 */
export function FormAlert({
  title,
  description,
  variant = "error",
  className,
  children,
  ...props
}: FormAlertProps) {
  return (
    <div
      role={variant === "error" ? "alert" : "status"}
      className={cn(
        "rounded-md border bg-background p-4",
        variant === "error"
          ? "border-destructive/50 text-destructive"
          : "border-success/50 text-success",
        className,
      )}
      {...props}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {description ? <p>{description}</p> : null}
      {children}
    </div>
  );
}
