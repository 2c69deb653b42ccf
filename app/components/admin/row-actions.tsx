import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Trash2 } from "lucide-react";
import { Button } from "~/components/ui/button";

/**
 * A row's one-click action: a form posting `intent` and the row's `id` to `action` (works without
 * JavaScript). `label` names the row for screen readers, since every row has the same button.
 */
export function RowActionForm({
  action,
  intent,
  id,
  label,
  disabled,
  children,
}: {
  action: string;
  intent: string;
  id: number;
  label: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="outline" size="sm" disabled={disabled} aria-label={label}>
        {children}
      </Button>
    </Form>
  );
}

/** 'Supprimer': a link to the page's own confirmation (`?remove=…`), so it works without JavaScript. */
export function RemoveLink({ to, label }: { to: string; label: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={to} preventScrollReset aria-label={label} className="text-destructive">
        <Trash2 aria-hidden="true" /> Supprimer
      </Link>
    </Button>
  );
}
