import type * as React from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { useHydrated } from "~/hooks/use-hydrated";

export type ConfirmDialogProps = {
  /** Whether the question is asked (an address like ?delete=ID, or the page's own state). */
  open: boolean;
  /** The heading's id for the step shown without JavaScript. */
  id: string;
  title: React.ReactNode;
  description: React.ReactNode;
  /** The text of the step without JavaScript, when it differs from the dialog's. */
  inlineDescription?: React.ReactNode;
  /** The form that does it: a POST to `action` of `fields` (hidden), sent by `confirmLabel`. */
  action: string;
  fields: Record<string, string | number>;
  confirmLabel: React.ReactNode;
  /** Where 'Annuler' leads without JavaScript (and, unless onCancel is given, with it). */
  cancelTo: string;
  onCancel?: () => void;
  /** Shows the step without JavaScript even once hydrated (it came from a posted form). */
  inline?: boolean;
};

/**
 * A confirmation before a destructive action. With JavaScript, a Radix dialog; without, the same
 * question as a step of the page, with the form and an 'Annuler' link, so that a page reached by
 * a link (?delete=ID) or by a post asks the same thing.
 */
export function ConfirmDialog({
  open,
  id,
  title,
  description,
  inlineDescription = description,
  action,
  fields,
  confirmLabel,
  cancelTo,
  onCancel,
  inline,
}: ConfirmDialogProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const busy = useNavigation().state === "submitting";
  const cancel =
    onCancel ?? (() => navigate(cancelTo, { preventScrollReset: true, replace: true }));
  const confirmForm = (
    <Form method="post" action={action}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant="destructive" disabled={busy}>
        {confirmLabel}
      </Button>
    </Form>
  );

  if (inline ?? !hydrated) {
    return open ? (
      <section
        aria-labelledby={id}
        className="space-y-4 rounded-lg border border-destructive/50 bg-background p-6"
      >
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        <p>{inlineDescription}</p>
        <div className="flex flex-wrap gap-3">
          {confirmForm}
          <Button asChild variant="outline">
            <Link to={cancelTo}>Annuler</Link>
          </Button>
        </div>
      </section>
    ) : null;
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(isOpen) => {
        if (!isOpen) cancel();
      }}
    >
      {open ? (
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={cancel}>
              Annuler
            </Button>
            {confirmForm}
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
