import { CSV_BOM, csvLine, parisDay, spreadsheetDateTime } from "~/platform/csv";
import { JOURNAL_ACTIONS, type JournalAction } from "~/platform/journal";
import { journalSearch, parseJournalFilters } from "~/platform/journal-filters-schema";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { journal, journalRows } from "~/platform/journal.server";
import { requireRecentIdentity } from "~/routes/admin/confirm-identity.server";
import type { Route } from "./+types/admin-journal-export[.]csv";

const HEADERS = ["Date", "Compte", "Action", "Cible", "Adresse", "Requête"];

/**
 * The journal's filtered view as a CSV file (every page; the retention bounds its size). The
 * export is journaled before the file is built: no entry, no file.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "admin");
  // Like the other exports: `Confirmez votre identité` unless the session is recent (issue 28).
  requireRecentIdentity(request, session);
  const { user } = session;
  const query = parseJournalFilters(new URL(request.url).searchParams);
  const rows = await journalRows(query);
  await journal.recordBeforeExport(context, {
    actor: user,
    action: "journal-exported",
    target: journalSearch({ ...query, page: 1 }) || "tout",
  });
  const body =
    CSV_BOM +
    csvLine(HEADERS) +
    rows
      .map((r) =>
        csvLine([
          spreadsheetDateTime(r.at),
          r.actorEmail,
          JOURNAL_ACTIONS[r.action as JournalAction] ?? r.action,
          r.target,
          r.ip,
          r.requestId,
        ]),
      )
      .join("");
  return new Response(body, {
    headers: {
      ...PRIVATE_HEADERS,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="journal-${parisDay(new Date())}.csv"`,
    },
  });
}
