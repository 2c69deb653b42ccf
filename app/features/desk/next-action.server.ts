// 'À relancer le' (issue 40): a day in Europe/Paris on a request, from its page or the list's
// bulk form. Not the request's activity: retention does not count from it.
import { eq, inArray } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";
import { contactRequests } from "~/platform/schema.server";

/** 'À relancer le' of one request (null clears it); missing: no such request. */
export async function setNextAction(
  id: number,
  day: string | null,
  database: Database = db(),
): Promise<"changed" | "missing"> {
  const changed = await database
    .update(contactRequests)
    .set({ nextActionOn: day })
    .where(eq(contactRequests.id, id))
    .returning({ id: contactRequests.id });
  return changed.length ? "changed" : "missing";
}

/** The same date on the ticked requests; returns how many exist. */
export async function setNextActions(
  ids: number[],
  day: string | null,
  database: Database = db(),
): Promise<number> {
  if (ids.length === 0) return 0;
  const changed = await database
    .update(contactRequests)
    .set({ nextActionOn: day })
    .where(inArray(contactRequests.id, ids))
    .returning({ id: contactRequests.id });
  return changed.length;
}
