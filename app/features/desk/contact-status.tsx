import type * as React from "react";
import { useFetcher, type FetcherWithComponents } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import {
  CONTACT_STATUS_LABELS,
  CONTACT_STATUS_LOOKS,
  CONTACT_STATUSES,
  type ContactStatus,
} from "~/lib/domain";
import { failureToast, useActionToast } from "~/hooks/use-action-toast";
import * as dom from "~/lib/dom-hooks";
import type { ActionFailure } from "~/lib/field-errors";

export function StatusBadge({ status }: { status: ContactStatus }) {
  const look = CONTACT_STATUS_LOOKS[status];
  return <Badge variant={look.badge}>{look.label}</Badge>;
}

/** A fetcher for one change of a request; its refusal shows as a toast. */
function useChangeFetcher() {
  const fetcher = useFetcher<ActionFailure>();
  useActionToast(fetcher.data, failureToast, fetcher.state);
  return fetcher;
}

/** The form of one change: its intent, the request, and the list view to return to (`back`). */
function ChangeForm({
  fetcher,
  action,
  intent,
  id,
  back,
  className,
  children,
}: {
  fetcher: FetcherWithComponents<ActionFailure>;
  action: string;
  intent: string;
  id: number;
  back?: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <fetcher.Form method="post" action={action} className={className} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {back ? <input type="hidden" name="back" value={back} /> : null}
      {children}
    </fetcher.Form>
  );
}

/**
 * The status selector of one request (spec: 'Statut'). With JavaScript a change is saved at once;
 * without, an 'Enregistrer' button posts the form. `back` is the list view to return to.
 */
export function StatusForm({
  id,
  name,
  status,
  action,
  back,
  compact = false,
}: {
  id: number;
  name: string;
  status: ContactStatus;
  action: string;
  back?: string;
  /** On a list card the badge beside it says what the selector is: its label is for screen readers. */
  compact?: boolean;
}) {
  const fetcher = useChangeFetcher();
  const pending = fetcher.formData?.get("status");
  const value = typeof pending === "string" ? pending : status;
  const selectId = `status-${id}`;

  return (
    <ChangeForm
      fetcher={fetcher}
      action={action}
      intent="status"
      id={id}
      back={back}
      className="flex flex-wrap items-center gap-2"
    >
      {compact ? (
        <label htmlFor={selectId} className="sr-only">
          Statut
        </label>
      ) : (
        <Label htmlFor={selectId}>Statut</Label>
      )}
      {/* Short component classes (app.css): 50 cards of them on one list page. */}
      <select
        id={selectId}
        name="status"
        className="status-select"
        value={value}
        aria-label={`Statut de la demande de ${name}`}
        onChange={(event) => {
          if (event.currentTarget.form) {
            fetcher.submit(event.currentTarget.form, { preventScrollReset: true });
          }
        }}
      >
        {CONTACT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {CONTACT_STATUS_LABELS[s]}
          </option>
        ))}
      </select>
      {/* Hidden from the first paint when scripted, never removed: nothing moves at hydration. */}
      <button type="submit" className="row-action" {...dom.hook(dom.NOJS_ONLY)}>
        Enregistrer
      </button>
    </ChangeForm>
  );
}

/** 'Ce n'est pas du spam': the request becomes a normal one and the sales team is notified. */
export function NotSpamForm({ id, action, back }: { id: number; action: string; back?: string }) {
  const fetcher = useChangeFetcher();
  return (
    <ChangeForm fetcher={fetcher} action={action} intent="not-spam" id={id} back={back}>
      <Button type="submit" size="sm" variant="secondary" disabled={fetcher.state !== "idle"}>
        Ce n'est pas du spam
      </Button>
    </ChangeForm>
  );
}

/**
 * 'Attribuer à': an Administrateur or Commercial account, or nobody. A plain form with its button,
 * with or without JavaScript.
 */
export function AssignForm({
  id,
  ownerId,
  owners,
  action,
}: {
  id: number;
  ownerId: number | null;
  owners: { id: number; email: string }[];
  action: string;
}) {
  const fetcher = useChangeFetcher();
  const selectId = `owner-${id}`;
  return (
    <ChangeForm
      fetcher={fetcher}
      action={action}
      intent="assign"
      id={id}
      className="flex flex-wrap items-center gap-2"
    >
      <Label htmlFor={selectId}>Attribuer à</Label>
      <select
        id={selectId}
        name="owner"
        className="status-select"
        defaultValue={ownerId ?? "none"}
        key={ownerId ?? "none"}
      >
        <option value="none">Personne</option>
        {owners.map((owner) => (
          <option key={owner.id} value={owner.id}>
            {owner.email}
          </option>
        ))}
      </select>
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
        Attribuer
      </Button>
    </ChangeForm>
  );
}
