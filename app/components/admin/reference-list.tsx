import { Plus } from "lucide-react";
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { RemoveLink } from "~/components/admin/row-actions";
import { Button } from "~/components/ui/button";
import { SectionCard } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import type { ActionFailure } from "~/lib/field-errors";

/**
 * The body of an admin page that keeps a list of names (datacenters, search synonyms): the
 * action's refusal, the removal's confirmation (reached by `?remove=KEY`, so it works without
 * JavaScript, posting `intent=remove` and `removeField=KEY`), the list with a 'Supprimer' link per
 * row, and the add form (`intent=add` and the page's own field).
 */
export function ReferenceList<T>({
  path,
  answer,
  items,
  itemKey,
  listLabel,
  empty,
  renderItem,
  removeLabel,
  pendingRemove,
  removeField,
  confirmTitle,
  confirmDescription,
  addTitle,
  addDescription,
  addField,
}: {
  path: string;
  /** What the action answered (a refusal shows as the page's alert or toast). */
  answer: ActionFailure | object | null | undefined;
  items: T[];
  /** A row's key: its `?remove=` value and what the removal posts. */
  itemKey: (item: T) => string | number;
  listLabel: string;
  empty: string;
  renderItem: (item: T) => ReactNode;
  removeLabel: (item: T) => string;
  pendingRemove: T | null;
  removeField: string;
  confirmTitle: string;
  confirmDescription: (item: T) => string;
  addTitle: string;
  addDescription: string;
  /** The add form's field (a Field with its control). */
  addField: ReactNode;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <ActionFailureAlert answer={answer} />
      <ConfirmDialog
        open={pendingRemove !== null}
        id="confirm-remove"
        title={confirmTitle}
        description={pendingRemove ? confirmDescription(pendingRemove) : ""}
        action={path}
        fields={{
          intent: "remove",
          [removeField]: pendingRemove ? String(itemKey(pendingRemove)) : "",
        }}
        confirmLabel="Supprimer"
        cancelTo={path}
      />
      <ul className="divide-y rounded-lg border bg-card" aria-label={listLabel}>
        {items.length === 0 ? <li className="p-4 text-muted-foreground">{empty}</li> : null}
        {items.map((item) => (
          <li key={itemKey(item)} className="flex flex-wrap items-center justify-between gap-3 p-4">
            {renderItem(item)}
            <RemoveLink to={`${path}?remove=${itemKey(item)}`} label={removeLabel(item)} />
          </li>
        ))}
      </ul>
      <SectionCard title={addTitle} description={addDescription}>
        <Form
          method="post"
          action={path}
          className="grid gap-4 md:grid-cols-[1fr_auto] md:items-start"
          aria-label={addTitle}
        >
          <input type="hidden" name="intent" value="add" />
          {addField}
          <Button type="submit" disabled={busy} className="md:mt-7">
            <Plus aria-hidden="true" /> Ajouter
          </Button>
        </Form>
      </SectionCard>
    </>
  );
}
