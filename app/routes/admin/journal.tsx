import { ExportLink } from "~/components/admin/export-link";
import { Form, redirect } from "react-router";
import { Pager } from "~/components/pager";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input, NativeSelect } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import { formatDateTime, isoDate, pluralize } from "~/lib/format";
import { JOURNAL_ACTIONS, JOURNAL_PAGE_SIZE, type JournalAction } from "~/platform/journal";
import { journalSearch, parseJournalFilters } from "~/platform/journal-filters-schema";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { recentlyAuthenticated } from "~/features/accounts/own-credentials.server";
import { confirmIdentityUrl } from "./confirm-identity.server";
import { journalAccounts, listJournal } from "~/platform/journal.server";
import type { Route } from "./+types/journal";

// `Journal` (issue 20): who did what in the admin area, newest first, by pages of 50.

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Journal");

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "admin");
  const query = parseJournalFilters(new URL(request.url).searchParams);
  // The export asks `Confirmez votre identité` first when the session is not recent.
  const exportPath = `/admin/journal/export.csv${journalSearch({ ...query, page: 1 })}`;
  const exportHref = recentlyAuthenticated(session) ? exportPath : confirmIdentityUrl(exportPath);
  const [{ rows, total }, accounts] = await Promise.all([
    listJournal(query, query.page),
    journalAccounts(),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / JOURNAL_PAGE_SIZE));
  if (query.page > pageCount) {
    throw redirect(`/admin/journal${journalSearch({ ...query, page: pageCount })}`, {
      headers: PRIVATE_HEADERS,
    });
  }
  return { rows, total, accounts, query, pageCount, exportHref };
}

function actionLabel(action: string): string {
  return JOURNAL_ACTIONS[action as JournalAction] ?? action;
}

export default function Journal({ loaderData }: Route.ComponentProps) {
  const { rows, total, accounts, query, pageCount, exportHref } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Journal</h1>
          <p className="text-sm text-muted-foreground" role="status">
            {`${total} ${pluralize(total, "entrée", "entrées")}`}
          </p>
        </div>
        <ExportLink href={exportHref} />
      </div>

      <Form
        method="get"
        action="/admin/journal"
        className="grid gap-4 rounded-lg border bg-card p-4 md:grid-cols-5 md:items-end"
        aria-label="Filtrer le journal"
      >
        <Field id="journal-account" label="Compte">
          <NativeSelect name="account" defaultValue={query.account ?? ""}>
            <option value="">Tous</option>
            {accounts.map((email) => (
              <option key={email} value={email}>
                {email}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="journal-action" label="Action">
          <NativeSelect name="action" defaultValue={query.action ?? ""}>
            <option value="">Toutes</option>
            {Object.entries(JOURNAL_ACTIONS).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="journal-from" label="Du">
          <Input type="date" name="from" defaultValue={query.from ?? ""} />
        </Field>
        <Field id="journal-to" label="Au">
          <Input type="date" name="to" defaultValue={query.to ?? ""} />
        </Field>
        <Button type="submit">Filtrer</Button>
      </Form>

      <div className="overflow-x-auto rounded-lg border bg-card">
        <table className="w-full text-sm">
          <caption className="sr-only">Entrées du journal</caption>
          <thead className="border-b text-left">
            <tr>
              {["Date", "Compte", "Action", "Cible", "Adresse", "Requête"].map((h) => (
                <th key={h} scope="col" className="p-3 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y">
            {rows.map((row) => (
              <tr key={row.id}>
                <td className="whitespace-nowrap p-3">
                  <time dateTime={isoDate(row.at)}>{formatDateTime(row.at)}</time>
                </td>
                <td className="break-all p-3">{row.actorEmail ?? "—"}</td>
                <td className="p-3">{actionLabel(row.action)}</td>
                <td className="break-all p-3">{row.target ?? ""}</td>
                <td className="p-3">{row.ip ?? ""}</td>
                <td className="p-3 font-mono text-xs">{row.requestId ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <Pager
        page={query.page}
        pageCount={pageCount}
        href={(page) => `/admin/journal${journalSearch({ ...query, page })}`}
      />
    </div>
  );
}
