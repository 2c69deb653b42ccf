import type * as React from "react";
import { Link, useNavigate } from "react-router";
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
  /** The form that does it: a POST with its destructive submit button. */
  children: React.ReactNode;
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
  children,
  cancelTo,
  onCancel,
  inline,
}: ConfirmDialogProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const cancel =
    onCancel ?? (() => navigate(cancelTo, { preventScrollReset: true, replace: true }));

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
          {children}
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
            {children}
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
