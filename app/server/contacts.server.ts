import { sql } from "drizzle-orm";
import type { ContactInput } from "~/lib/contact";
import { CONTACT_STATUSES, type ContactStatus } from "~/lib/domain";
import { db, type Database } from "./db.server";
import { enqueueContactNotification } from "./mail-outbox.server";
import { contactRequestCounts, contactRequests, offers } from "./schema.server";

/**
 * Stores a contact request and, unless it is suspected spam, the sales team's notification in the
 * outbox, in one transaction: both or neither. An offer id that matches no row is stored as null
 * (the offer may have been deleted meanwhile): the lead is never lost over it. The offer's title
 * and reference are copied too, so the request stays readable once the offer is deleted. A
 * suspected spam (the honeypot was filled) is kept but not mailed (issue 10).
 */
export async function createContactRequest(
  input: ContactInput,
  database: Database = db(),
  options: { suspectedSpam?: boolean } = {},
) {
  const offerColumn = (column: typeof offers.id | typeof offers.title | typeof offers.reference) =>
    input.offer === null
      ? null
      : sql`(select ${column} from ${offers} where ${offers.id} = ${input.offer})`;
  const suspectedSpam = options.suspectedSpam ?? false;
  return database.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactRequests)
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone,
        message: input.message,
        offerId: offerColumn(offers.id),
        offerTitle: offerColumn(offers.title),
        offerReference: offerColumn(offers.reference),
        suspectedSpam,
      })
      .returning({ id: contactRequests.id });
    if (!suspectedSpam) await enqueueContactNotification(row.id, tx as unknown as Database);
    return row;
  });
}

/** Per-status counts of contact requests, read from the counters the triggers keep (migration 0003). */
export async function contactStatusCounts(database: Database = db()) {
  const rows = await database.select().from(contactRequestCounts);
  const byKey = new Map(rows.map((r) => [r.key, r.count]));
  const status = Object.fromEntries(
    CONTACT_STATUSES.map((s) => [s, byKey.get(`status:${s}`) ?? 0]),
  ) as Record<ContactStatus, number>;
  return {
    ...status,
    // Suspected spam is counted apart: it is in no total until an administrator clears it.
    total: CONTACT_STATUSES.reduce((sum, s) => sum + status[s], 0),
    spam: byKey.get("spam") ?? 0,
  };
}

/** Dashboard counts: exact, a few rows read whatever the number of requests. */
export async function contactRequestStats(database: Database = db()) {
  const counts = await contactStatusCounts(database);
  return {
    total: counts.total,
    pending: counts.pending,
    inProgress: counts.in_progress,
    completed: counts.completed,
  };
}
