// The CSV export of a list view, read batch by batch.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { vatNumberOf } from "~/lib/siren";
import { type ContactSort } from "./contact-filters";
import { csvLine, CSV_BOM, spreadsheetDateTime } from "~/platform/csv";
import { CONTACT_STATUS_LABELS } from "~/lib/domain";
import { configurationLines } from "~/lib/offer-options";
import { db, type Database } from "~/platform/db.server";
import { offerColumns, sentColumns } from "~/platform/contact-columns.server";
import { contactRequests, offers } from "~/platform/schema.server";
import { listConditions, type ContactQuery } from "./contact-list.server";
import { withOffer } from "~/platform/contact-columns.server";

/** The export's order: by date, the one its keyset reading follows (other sorts read as newest). */
function exportOrder(sort: ContactSort) {
  return sort === "oldest"
    ? [asc(contactRequests.createdAt), asc(contactRequests.id)]
    : [desc(contactRequests.createdAt), desc(contactRequests.id)];
}

export const CSV_HEADERS = [
  "Date",
  "Nom",
  "Email",
  "Téléphone",
  "Offre",
  "Référence",
  "Statut",
  "Message",
  "Configuration",
  "Société",
  "SIREN",
  "N° TVA",
  // Where the visit came from (issue 42): utm_source, utm_medium, utm_campaign, the referring site.
  "Source",
  "Support",
  "Campagne",
  "Site référent",
] as const;

/** Rows read per query while exporting: memory stays flat whatever the number of requests. */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * Every request of a list view, in the list's order, as batches read by keyset (created_at, id):
 * no transaction or cursor stays open between batches (PGlite has one connection for everyone),
 * and the position is kept as the database's own text of created_at, microseconds included.
 */
export async function* exportContactRequests(
  filters: ContactQuery,
  batchSize = EXPORT_BATCH_SIZE,
  database: Database = db(),
) {
  const oldest = filters.sort === "oldest";
  let after: { at: string; id: number } | undefined;
  for (;;) {
    const position = after
      ? oldest
        ? sql`(${contactRequests.createdAt}, ${contactRequests.id}) > (${after.at}::timestamptz, ${after.id})`
        : sql`(${contactRequests.createdAt}, ${contactRequests.id}) < (${after.at}::timestamptz, ${after.id})`
      : undefined;
    const rows = await database
      .select({
        ...sentColumns,
        position: sql<string>`${contactRequests.createdAt}::text`,
        status: contactRequests.status,
        ...offerColumns,
      })
      .from(contactRequests)
      .leftJoin(offers, eq(offers.id, contactRequests.offerId))
      .where(and(listConditions(filters), position))
      .orderBy(...exportOrder(filters.sort))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((row) => {
      const { offer, ...rest } = withOffer(row);
      return {
        ...rest,
        offerTitle: offer?.title ?? null,
        offerReference: offer?.reference ?? null,
        statusLabel: CONTACT_STATUS_LABELS[row.status],
      };
    });
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    after = { at: last.position, id: last.id };
  }
}

/**
 * The CSV file of a list view (UTF-8 with BOM, ';', French headers), produced batch by batch as
 * the client reads it: a slow download holds one batch in memory, never the whole table.
 */
export function contactRequestsCsv(
  filters: ContactQuery,
  database: Database = db(),
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = exportContactRequests(filters, EXPORT_BATCH_SIZE, database);
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_BOM + csvLine(CSV_HEADERS)));
          return;
        }
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        const text = next.value
          .map((r) =>
            csvLine([
              spreadsheetDateTime(r.createdAt),
              r.name,
              r.email,
              r.phone,
              r.offerTitle,
              r.offerReference,
              r.statusLabel,
              r.message,
              r.configuration ? configurationLines(r.configuration).join("\n") : "",
              r.company,
              r.siren,
              r.siren ? vatNumberOf(r.siren) : null,
              r.source,
              r.medium,
              r.campaign,
              r.referrer,
            ]),
          )
          .join("");
        controller.enqueue(encoder.encode(text));
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
