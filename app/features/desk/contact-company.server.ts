import { eq } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";
import { offers } from "~/platform/schema.server";

// Issue 29: a lease (LOA) is reserved to businesses, so a request about an LOA offer carries the
// buyer's SIREN. The form's schema checks the SIREN itself; this says whether it is required.

/** Whether a request about `offerId` must carry a SIREN: its offer is an LOA offer. */
export async function offerNeedsSiren(
  offerId: number | null,
  database: Database = db(),
): Promise<boolean> {
  if (offerId === null) return false;
  const [offer] = await database
    .select({ type: offers.type })
    .from(offers)
    .where(eq(offers.id, offerId));
  return offer?.type === "loa";
}
