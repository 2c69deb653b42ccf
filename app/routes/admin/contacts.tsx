import { ExportLink } from "~/components/admin/export-link";
import { Link, redirect, useNavigation } from "react-router";
import { Pager } from "~/components/pager";
import { ensureCanonicalQuery } from "~/platform/canonical-query";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { adminMeta } from "~/routes/admin/meta";
import {
  CONTACT_PAGE_SIZE,
  contactFiltersToSearch,
  SPAM_FILTER,
  CONTACT_LIST_PARAMS,
} from "~/features/desk/contact-filters";
import { contactListPath, parseContactFilters } from "~/features/desk/contact-filters-schema";
import { pluralize } from "~/lib/format";
import { contactStatusCounts } from "~/features/desk/contact-counts.server";
import { listContactRequests } from "~/features/desk/contact-list.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { recentlyAuthenticated } from "~/features/accounts/own-credentials.server";
import { confirmIdentityUrl } from "./confirm-identity.server";
import { canOpen } from "~/features/accounts/roles";
import { listAssignableUsers } from "~/features/accounts/users.server";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { contactAction } from "./contact-actions.server";
import { readForm } from "~/platform/form.server";
import { countUnattached } from "~/features/conversation/unattached.server";
import { requestSources } from "~/features/attribution/request-sources.server";
import type { Route } from "./+types/contacts";
import { BulkForm, ContactTable, FilterForm, OwnerTabs } from "~/features/desk/contact-list-view";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Demandes de contact");

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "contacts");
  const { user } = session;
  const url = new URL(request.url);
  const { filters, page } = parseContactFilters(url.searchParams);
  // One address per view: '?q=&status=&sort=newest' is '/admin/contacts' (the GET form sends all).
  const canonical = contactFiltersToSearch(filters, page);
  ensureCanonicalQuery(
    url.searchParams,
    CONTACT_LIST_PARAMS,
    canonical,
    `/admin/contacts${canonical}`,
    {
      headers: PRIVATE_HEADERS,
    },
  );
  const [{ requests, total }, counts, owners, unattached, sources] = await Promise.all([
    listContactRequests({ ...filters, viewerId: user.id }, page),
    contactStatusCounts(),
    listAssignableUsers(),
    countUnattached(),
    requestSources(),
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
  return {
    requests,
    total,
    counts,
    owners,
    filters,
    page,
    pageCount,
    canExport,
    exportHref,
    unattached,
    sources,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "contacts");
  return contactAction(request, await readForm(request), context, {
    user,
    returnTo: (form) => contactListPath(form.get("back")),
  });
}

export default function AdminContacts({ loaderData, actionData }: Route.ComponentProps) {
  const { requests, total, counts, owners, filters, page, pageCount, canExport, exportHref } =
    loaderData;
  const navigation = useNavigation();
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
        <div className="flex flex-wrap items-center gap-3">
          {loaderData.unattached > 0 ? (
            <Link to="/admin/messages" className="text-sm font-medium text-primary underline">
              {`${loaderData.unattached} ${pluralize(loaderData.unattached, "message reçu", "messages reçus")} non rattaché${loaderData.unattached > 1 ? "s" : ""}`}
            </Link>
          ) : null}
          {canExport ? <ExportLink href={exportHref} /> : null}
        </div>
      </div>

      <OwnerTabs filters={filters} />
      <FilterForm filters={filters} counts={counts} sources={loaderData.sources} />
      <ActionFailureAlert answer={actionData} state={navigation.state} always />
      {filters.status === SPAM_FILTER ? (
        <p className="text-sm text-muted-foreground">
          Envois qui ont rempli le champ caché du formulaire (piège à robots) : ils ne sont pas
          notifiés. Une vraie demande se rétablit avec « Ce n'est pas du spam » sur sa page.
        </p>
      ) : null}

      {requests.length === 0 ? (
        <p className="rounded-lg border border-dashed bg-background p-8 text-center text-muted-foreground">
          {ADMIN_MESSAGES.contactsEmpty}
        </p>
      ) : (
        <>
          <BulkForm owners={owners} back={back} spam={filters.status === SPAM_FILTER} />
          <ContactTable requests={requests} filters={filters} />
        </>
      )}
      <Pager
        page={page}
        pageCount={pageCount}
        href={(p) => `/admin/contacts${contactFiltersToSearch(filters, p)}`}
      />
    </div>
  );
}
