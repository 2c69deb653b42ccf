// Counts of requests by status, from the counters the triggers keep.
import { CONTACT_STATUSES, type ContactStatus } from "~/lib/domain";
import { db, type Database } from "~/platform/db.server";
import { contactRequestCounts } from "~/platform/schema.server";

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
