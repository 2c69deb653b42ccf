import { parseContactFilters } from "~/features/desk/contact-filters-schema";
import { contactFiltersToSearch } from "~/features/desk/contact-filters";
import { parisDay } from "~/platform/csv";
import { contactRequestsCsv } from "~/features/desk/contact-export.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { requireRecentIdentity } from "~/routes/admin/confirm-identity.server";
import { log } from "~/platform/log.server";
import { journal } from "~/platform/journal.server";
import type { Route } from "./+types/admin-contacts-export[.]csv";

/** The list's view (status, search, sort; every page) as a CSV file, streamed as it is read. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "admin");
  requireRecentIdentity(request, session);
  const { user } = session;
  const { filters } = parseContactFilters(new URL(request.url).searchParams);
  const name = `demandes-contact-${filters.status === "spam" ? "spam-" : ""}${parisDay(new Date())}.csv`;
  log.info("contact requests exported", { requestId: context.requestId, userId: user.id });
  await journal.recordBeforeExport(context, {
    actor: user,
    action: "contacts-exported",
    target: contactFiltersToSearch(filters) || "toutes",
  });
  return new Response(contactRequestsCsv({ ...filters, viewerId: user.id }), {
    headers: {
      ...PRIVATE_HEADERS,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
    },
  });
}
