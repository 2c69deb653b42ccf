// The request list's parts: its filters (applied as they change with JavaScript), the owner tabs,
// the sortable table with its selection, and the bulk form.
import { type ReactNode, useEffect, useRef } from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input, NativeSelect } from "~/components/ui/input";
import { SearchInput } from "~/components/ui/search-input";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import {
  CONTACT_SORTS,
  MAX_CONTACT_SEARCH_LENGTH,
  SORT_COLUMNS,
  sortFor,
  sortParts,
  type SortColumn,
  contactFiltersToSearch,
  SPAM_FILTER,
  type ContactListFilters,
  type ContactSort,
  type ContactStatusFilter,
  OWNER_FILTER_LABELS,
  OWNER_FILTERS,
  type OwnerFilter,
} from "./contact-filters";
import { CONTACT_STATUS_LABELS, CONTACT_STATUSES } from "~/lib/domain";
import { formatDateTime, isoDate } from "~/lib/format";
import { useHydrated } from "~/hooks/use-hydrated";
import * as dom from "~/lib/dom-hooks";
import type { contactStatusCounts } from "./contact-counts.server";
import type { AdminContactRequest } from "./contact-list.server";
import { Checkbox } from "~/components/ui/checkbox";

/** The filters as the canonical address, read from the form (with JavaScript). */
function formSearch(form: HTMLFormElement): string {
  const data = new FormData(form);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  const sort = text("sort");
  const filters: ContactListFilters = {
    sort: (CONTACT_SORTS as readonly string[]).includes(sort) ? (sort as ContactSort) : "newest",
  };
  if (text("q")) filters.q = text("q").slice(0, MAX_CONTACT_SEARCH_LENGTH);
  if (text("status")) filters.status = text("status") as ContactStatusFilter;
  if (text("owner")) filters.owner = text("owner") as OwnerFilter;
  if (text("source")) filters.source = text("source").slice(0, 100);
  return contactFiltersToSearch(filters);
}

/**
 * Keeps an uncontrolled field in step with the address (back button, 'Effacer les filtres') without
 * remounting it: a field re-created while the administrator types would lose the focus.
 */
function useFieldValue<T extends HTMLInputElement | HTMLSelectElement>(value: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const field = ref.current;
    if (field && document.activeElement !== field && field.value !== value) field.value = value;
  }, [value]);
  return ref;
}

/** A select of the filter form: a choice applies at once with JavaScript. */
function FilterSelect({
  id,
  label,
  name,
  className,
  value,
  onPick,
  children,
}: {
  id: string;
  label: string;
  name: string;
  className: string;
  value: string;
  onPick: (form: HTMLFormElement | null) => void;
  children: ReactNode;
}) {
  const field = useFieldValue<HTMLSelectElement>(value);
  return (
    <Field id={id} label={label}>
      <NativeSelect
        name={name}
        className={className}
        defaultValue={value}
        ref={field}
        onChange={(event) => onPick(event.currentTarget.form)}
      >
        {children}
      </NativeSelect>
    </Field>
  );
}

export function FilterForm({
  filters,
  counts,
  sources,
}: {
  filters: ContactListFilters;
  counts: Awaited<ReturnType<typeof contactStatusCounts>>;
  sources: { source: string; count: number }[];
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(typing.current), []);
  const apply = (form: HTMLFormElement | null, replace = false) => {
    if (form) void navigate(`/admin/contacts${formSearch(form)}`, { replace });
  };
  const searchField = useFieldValue<HTMLInputElement>(filters.q ?? "");
  const filtered = Boolean(
    filters.q || filters.status || filters.owner || filters.source || filters.sort !== "newest",
  );

  return (
    <Form
      method="get"
      action="/admin/contacts"
      role="search"
      aria-label="Filtrer les demandes"
      className="flex flex-wrap items-end gap-3 rounded-lg border bg-background p-4"
      onSubmit={(event) => {
        event.preventDefault();
        clearTimeout(typing.current);
        apply(event.currentTarget);
      }}
    >
      {filters.owner ? <input type="hidden" name="owner" value={filters.owner} /> : null}
      <Field id="contact-search" label="Rechercher" className="min-w-56 flex-1">
        <SearchInput
          name="q"
          placeholder="Nom, email, téléphone, message, référence..."
          maxLength={MAX_CONTACT_SEARCH_LENGTH}
          defaultValue={filters.q ?? ""}
          ref={searchField}
          onChange={(event) => {
            // With JavaScript the list follows the typing, once it pauses.
            const form = event.currentTarget.form;
            clearTimeout(typing.current);
            typing.current = setTimeout(() => apply(form, true), 300);
          }}
        />
      </Field>
      <FilterSelect
        id="status-filter"
        label="Filtrer par statut"
        name="status"
        className="w-56"
        value={filters.status ?? ""}
        onPick={apply}
      >
        <option value="">Tous les statuts ({counts.total})</option>
        {CONTACT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {CONTACT_STATUS_LABELS[s]} ({counts[s]})
          </option>
        ))}
        <option value={SPAM_FILTER}>Spam suspecté ({counts.spam})</option>
      </FilterSelect>
      {/* Where the requests came from (issue 42): utm_source of the visit's first page. */}
      <FilterSelect
        id="source-filter"
        label="Filtrer par source"
        name="source"
        className="w-48"
        value={filters.source ?? ""}
        onPick={apply}
      >
        <option value="">Toutes les sources</option>
        {filters.source && !sources.some((s) => s.source === filters.source) ? (
          <option value={filters.source}>{filters.source}</option>
        ) : null}
        {sources.map(({ source, count }) => (
          <option key={source} value={source}>
            {source} ({count})
          </option>
        ))}
      </FilterSelect>
      {filters.sort !== "newest" ? <input type="hidden" name="sort" value={filters.sort} /> : null}
      {/* Hidden from the first paint when scripted (nothing moves), gone once hydrated. */}
      {hydrated ? null : (
        <Button type="submit" variant="outline" {...dom.hook(dom.NOJS_ONLY)}>
          Filtrer
        </Button>
      )}
      {filtered ? (
        <Button asChild variant="ghost">
          <Link to="/admin/contacts">Effacer les filtres</Link>
        </Button>
      ) : null}
    </Form>
  );
}

const BULK_FORM = "bulk-form";

/**
 * The bulk actions of the ticked rows: one form before the table, which the rows' checkboxes join
 * with their `form` attribute (forms cannot nest). Posted as is without JavaScript.
 */
export function BulkForm({
  owners,
  back,
  spam,
}: {
  owners: { id: number; email: string }[];
  back: string;
  spam: boolean;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form
      method="post"
      action="/admin/contacts"
      id={BULK_FORM}
      aria-label="Action groupée"
      className="flex flex-wrap items-end gap-3"
      preventScrollReset
    >
      <input type="hidden" name="intent" value="bulk" />
      <input type="hidden" name="back" value={back} />
      <Field id="bulk-action" label="Pour les demandes cochées">
        <NativeSelect name="bulk" className="w-64" defaultValue="" required>
          <option value="" disabled>
            Choisir une action…
          </option>
          <optgroup label="Changer le statut">
            {CONTACT_STATUSES.map((s) => (
              <option key={s} value={`status:${s}`}>
                {CONTACT_STATUS_LABELS[s]}
              </option>
            ))}
          </optgroup>
          <optgroup label="Attribuer à">
            <option value="assign:none">Personne</option>
            {owners.map((owner) => (
              <option key={owner.id} value={`assign:${owner.id}`}>
                {owner.email}
              </option>
            ))}
          </optgroup>
          <optgroup label="Relance">
            <option value="follow-up">À relancer le (date ci-contre)</option>
            <option value="follow-up:none">Retirer la relance</option>
          </optgroup>
          {spam ? null : <option value="spam">Marquer comme spam</option>}
        </NativeSelect>
      </Field>
      <Field id="bulk-next-action" label="À relancer le">
        <Input type="date" name="nextActionOn" className="w-44" />
      </Field>
      <Button type="submit" variant="outline" disabled={busy}>
        Appliquer
      </Button>
    </Form>
  );
}

const COLUMN_LABELS: Record<SortColumn, string> = {
  date: "Date",
  name: "Nom",
  offer: "Offre",
  status: "Statut",
  owner: "Responsable",
  activity: "Dernière activité",
};

/** A column header that sorts the list (a link: with or without JavaScript). */
function SortHeader({ column, filters }: { column: SortColumn; filters: ContactListFilters }) {
  const current = sortParts(filters.sort);
  const active = current.column === column;
  const next = sortFor(column, filters.sort);
  return (
    <th
      scope="col"
      aria-sort={active ? (current.descending ? "descending" : "ascending") : undefined}
      className="px-3 py-2 font-medium"
    >
      <Link
        to={`/admin/contacts${contactFiltersToSearch({ ...filters, sort: next })}`}
        className="inline-flex items-center gap-1 hover:underline"
      >
        {COLUMN_LABELS[column]}
        {active ? <span aria-hidden="true">{current.descending ? "▼" : "▲"}</span> : null}
      </Link>
    </th>
  );
}

/** Ticks or unticks every row (JavaScript only: without, each row is ticked by hand). */
function SelectAll() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Checkbox
      aria-label="Tout cocher"
      onChange={(event) => {
        const checked = event.currentTarget.checked;
        const form = document.getElementById(BULK_FORM) as HTMLFormElement | null;
        for (const box of form?.elements ?? []) {
          if (box instanceof HTMLInputElement && box.name === "ids") box.checked = checked;
        }
      }}
    />
  );
}

/** The dense list (issue 22): one row per request, sortable columns, a checkbox per row. */
export function ContactTable({
  requests,
  filters,
}: {
  requests: AdminContactRequest[];
  filters: ContactListFilters;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border bg-background">
      <table className="contact-table">
        <caption className="sr-only">Demandes de contact</caption>
        <thead>
          <tr>
            <th scope="col" className="w-10 px-3 py-2">
              <SelectAll />
            </th>
            {SORT_COLUMNS.map((column) => (
              <SortHeader key={column} column={column} filters={filters} />
            ))}
          </tr>
        </thead>
        <tbody>
          {requests.map((r) => (
            <tr key={r.id}>
              <td>
                <input
                  type="checkbox"
                  name="ids"
                  value={r.id}
                  form={BULK_FORM}
                  aria-label={`Cocher ${r.name}`}
                  className="size-4 accent-primary"
                />
              </td>
              <td>
                <time dateTime={isoDate(r.createdAt)}>{formatDateTime(r.createdAt)}</time>
              </td>
              <th scope="row">
                <Link to={`/admin/contacts/${r.id}`}>{r.name}</Link>
              </th>
              <td>
                {r.offer ? (
                  r.offer.deleted ? (
                    <span title={ADMIN_MESSAGES.offerDeletedLabel}>{r.offer.title} *</span>
                  ) : (
                    r.offer.title
                  )
                ) : (
                  "—"
                )}
              </td>
              <td>{r.suspectedSpam ? "Spam suspecté" : CONTACT_STATUS_LABELS[r.status]}</td>
              <td>{r.ownerEmail ?? "—"}</td>
              <td>
                <time dateTime={isoDate(r.updatedAt)}>{formatDateTime(r.updatedAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** 'Toutes', 'Mes demandes', 'Non attribuées': links that keep the other filters. */
export function OwnerTabs({ filters }: { filters: ContactListFilters }) {
  const tabs: { owner: OwnerFilter | undefined; label: string }[] = [
    { owner: undefined, label: "Toutes" },
    ...OWNER_FILTERS.map((owner) => ({ owner, label: OWNER_FILTER_LABELS[owner] })),
  ];
  return (
    <nav aria-label="Demandes par responsable" className="flex flex-wrap gap-2">
      {tabs.map(({ owner, label }) => (
        <Button
          key={label}
          asChild
          size="sm"
          variant={filters.owner === owner ? "default" : "outline"}
        >
          <Link
            to={`/admin/contacts${contactFiltersToSearch({ ...filters, owner })}`}
            aria-current={filters.owner === owner ? "page" : undefined}
          >
            {label}
          </Link>
        </Button>
      ))}
    </nav>
  );
}
