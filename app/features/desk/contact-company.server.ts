import { eq } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";
import { offers } from "~/platform/schema.server";
import { lookupCompany } from "./company-lookup.server";

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

/**
 * The request with its company named from its SIREN when the visitor left `Société` empty and the
 * register knows it (issue 41, SIRENE_API_URL): at most the lookup's second, and as typed when
 * the lookup is off, slow or unsure.
 */
export async function withCompanyOfSiren<
  T extends { company: string | null; siren: string | null },
>(input: T): Promise<T> {
  if (input.company !== null || input.siren === null) return input;
  const company = await lookupCompany(input.siren);
  return company ? { ...input, company: company.name } : input;
}
