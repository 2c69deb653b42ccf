import { Download, Mail, Phone, Server } from "lucide-react";
import { IconSprite, SpriteIcon } from "~/components/icon-sprite";
import { useEffect, useRef } from "react";
import { Form, Link, redirect, useNavigate } from "react-router";
import { NotSpamForm, StatusBadge, StatusForm } from "~/components/admin/contact-status";
import { Pager } from "~/components/pager";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-alert";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/input";
import { SearchInput } from "~/components/ui/search-input";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { adminMeta } from "~/lib/admin-meta";
import {
  CONTACT_PAGE_SIZE,
  contactFiltersToSearch,
  SPAM_FILTER,
  type ContactListFilters,
  type ContactSort,
  type ContactStatusFilter,
} from "~/lib/contact-filters";
import {
  contactListPath,
  MAX_CONTACT_SEARCH_LENGTH,
  parseContactFilters,
} from "~/lib/contact-filters-schema";
import { CONTACT_STATUS_LABELS, CONTACT_STATUSES } from "~/lib/domain";
import { formatDateTime, isoDate, pluralize } from "~/lib/format";
import { useHydrated } from "~/hooks/use-hydrated";
import {
  contactStatusCounts,
  listContactRequests,
  type AdminContactRequest,
} from "~/server/contacts.server";
import { PRIVATE_HEADERS, recentlyAuthenticated, requireAdmin } from "~/server/auth.server";
import { confirmIdentityUrl } from "./confirm-identity.server";
import { canOpen } from "~/lib/roles";
import { contactAction } from "./contact-actions.server";
import type { Route } from "./+types/contacts";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Demandes de contact");

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "contacts");
  const url = new URL(request.url);
  const { filters, page } = parseContactFilters(url.searchParams);
  // One address per view: '?q=&status=&sort=newest' is '/admin/contacts' (the GET form sends all).
  const canonical = contactFiltersToSearch(filters, page);
  const known = new URLSearchParams(
    [...url.searchParams].filter(([key]) => ["q", "status", "sort", "page"].includes(key)),
  );
  if ((known.size ? `?${known}` : "") !== canonical) {
    throw redirect(`/admin/contacts${canonical}`, { headers: PRIVATE_HEADERS });
  }
  const [{ requests, total }, counts] = await Promise.all([
    listContactRequests(filters, page),
    contactStatusCounts(),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / CONTACT_PAGE_SIZE));
  if (page > pageCount) {
    throw redirect(`/admin/contacts${contactFiltersToSearch(filters, pageCount)}`, {
      headers: PRIVATE_HEADERS,
    });
  }
  // The CSV export is the Administrateur's (requireAdmin in its loader): others get no link.
  const canExport = canOpen(session.user.role, "admin");
  // The export asks `Confirmez votre identité` first when the session is not recent.
  const exportPath = `/admin/contacts/export.csv${contactFiltersToSearch(filters)}`;
  const exportHref = recentlyAuthenticated(session) ? exportPath : confirmIdentityUrl(exportPath);
  return { requests, total, counts, filters, page, pageCount, canExport, exportHref };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "contacts");
  return contactAction(request, context, {
    user,
    returnTo: (form) => contactListPath(form.get("back")),
  });
}

function ContactCard({ request, back }: { request: AdminContactRequest; back: string }) {
  const href = `/admin/contacts/${request.id}`;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0 p-4">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-lg font-semibold">
              <Link to={href} className="hover:text-primary hover:underline">
                {request.name}
              </Link>
            </h2>
            <StatusBadge status={request.status} />
            {request.suspectedSpam ? <Badge variant="destructive">Spam suspecté</Badge> : null}
          </div>
          <p className="text-sm text-muted-foreground">
            <time dateTime={isoDate(request.createdAt)}>{formatDateTime(request.createdAt)}</time>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {request.suspectedSpam ? (
            <NotSpamForm id={request.id} action="/admin/contacts" back={back} />
          ) : null}
          <StatusForm
            id={request.id}
            name={request.name}
            status={request.status}
            action="/admin/contacts"
            back={back}
            compact
          />
        </div>
      </CardHeader>
      <CardContent className="space-y-3 p-4 pt-0">
        <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <a
            href={`mailto:${request.email}`}
            className="flex items-center gap-2 hover:text-primary"
          >
            <SpriteIcon id="mail" className="size-4 text-primary" />
            {request.email}
          </a>
          {request.phone ? (
            <a
              href={`tel:${request.phone.replace(/[^\d+]/g, "")}`}
              className="flex items-center gap-2 hover:text-primary"
            >
              <SpriteIcon id="phone" className="size-4 text-primary" />
              {request.phone}
            </a>
          ) : null}
          {request.offer ? (
            <p className="flex items-center gap-2">
              <SpriteIcon id="server" className="size-4 text-primary" />
              <span>
                {request.offer.deleted ? (
                  <>
                    <span className="font-medium text-destructive">
                      {ADMIN_MESSAGES.offerDeletedLabel}
                    </span>{" "}
                    :{" "}
                  </>
                ) : null}
                {request.offer.title} ({request.offer.reference})
              </span>
            </p>
          ) : null}
        </div>
        {/* A preview: the request's page shows the whole message. */}
        <p className="line-clamp-4 whitespace-pre-line break-words rounded-md bg-muted/50 p-3 text-sm">
          {request.messageCut ? `${request.message.trimEnd()}…` : request.message}
        </p>
      </CardContent>
    </Card>
  );
}

const SORT_LABELS: Record<ContactSort, string> = {
  newest: "Plus récentes d'abord",
  oldest: "Plus anciennes d'abord",
};

/** The filters as the canonical address, read from the form (with JavaScript). */
function formSearch(form: HTMLFormElement): string {
  const data = new FormData(form);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  const filters: ContactListFilters = {
    sort: text("sort") === "oldest" ? "oldest" : "newest",
  };
  if (text("q")) filters.q = text("q").slice(0, MAX_CONTACT_SEARCH_LENGTH);
  if (text("status")) filters.status = text("status") as ContactStatusFilter;
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

function FilterForm({
  filters,
  counts,
}: {
  filters: ContactListFilters;
  counts: Awaited<ReturnType<typeof contactStatusCounts>>;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(typing.current), []);
  const apply = (form: HTMLFormElement | null, replace = false) => {
    if (form) void navigate(`/admin/contacts${formSearch(form)}`, { replace });
  };
  const searchField = useFieldValue<HTMLInputElement>(filters.q ?? "");
  const statusField = useFieldValue<HTMLSelectElement>(filters.status ?? "");
  const sortField = useFieldValue<HTMLSelectElement>(filters.sort);
  const filtered = Boolean(filters.q || filters.status || filters.sort !== "newest");

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
      <Field id="status-filter" label="Filtrer par statut">
        <NativeSelect
          name="status"
          className="w-56"
          defaultValue={filters.status ?? ""}
          ref={statusField}
          onChange={(event) => apply(event.currentTarget.form)}
        >
          <option value="">Tous les statuts ({counts.total})</option>
          {CONTACT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {CONTACT_STATUS_LABELS[s]} ({counts[s]})
            </option>
          ))}
          <option value={SPAM_FILTER}>Spam suspecté ({counts.spam})</option>
        </NativeSelect>
      </Field>
      <Field id="sort" label="Trier">
        <NativeSelect
          name="sort"
          className="w-52"
          defaultValue={filters.sort}
          ref={sortField}
          onChange={(event) => apply(event.currentTarget.form)}
        >
          {(["newest", "oldest"] as const).map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {hydrated ? null : (
        <Button type="submit" variant="outline">
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

export default function AdminContacts({ loaderData, actionData }: Route.ComponentProps) {
  const { requests, total, counts, filters, page, pageCount, canExport, exportHref } = loaderData;
  const back = contactFiltersToSearch(filters, page);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Demandes de contact</h1>
          <p className="text-sm text-muted-foreground" role="status">
            {`${total} ${pluralize(total, "demande", "demandes")}${
              filters.status === SPAM_FILTER ? " suspectée(s) de spam" : ""
            }`}
          </p>
        </div>
        {canExport ? (
          <Button asChild variant="outline">
            <a
              href={exportHref}
              download={exportHref.startsWith("/admin/confirm") ? undefined : true}
            >
              <Download aria-hidden="true" /> Exporter (CSV)
            </a>
          </Button>
        ) : null}
      </div>

      <FilterForm filters={filters} counts={counts} />
      {/* The cards' icons, drawn once (a page of 50 cards stays small). */}
      <IconSprite icons={{ mail: Mail, phone: Phone, server: Server }} />
      {actionData?.error ? (
        <FormAlert title={actionData.error} description={actionData.description} />
      ) : null}
      {filters.status === SPAM_FILTER ? (
        <p className="text-sm text-muted-foreground">
          Envois qui ont rempli le champ caché du formulaire (piège à robots) : ils ne sont pas
          notifiés. Une vraie demande se rétablit avec « Ce n'est pas du spam ».
        </p>
      ) : null}

      {requests.length === 0 ? (
        <p className="rounded-lg border border-dashed bg-background p-8 text-center text-muted-foreground">
          {ADMIN_MESSAGES.contactsEmpty}
        </p>
      ) : (
        <ul className="space-y-4" aria-label="Demandes">
          {requests.map((request) => (
            <li key={request.id}>
              <ContactCard request={request} back={back} />
            </li>
          ))}
        </ul>
      )}
      <Pager
        page={page}
        pageCount={pageCount}
        href={(p) => `/admin/contacts${contactFiltersToSearch(filters, p)}`}
      />
    </div>
  );
}
