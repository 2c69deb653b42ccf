import { count, desc, eq, sql } from "drizzle-orm";
import type { ContactInput } from "~/lib/contact";
import type { ContactStatus } from "~/lib/domain";
import { requestOffer } from "~/lib/request-offer";
import { db, type Database } from "./db.server";
import { enqueueContactNotification } from "./mail-outbox.server";
import { contactRequests, offers } from "./schema.server";

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

/** Admin list (spec section 7): newest first, optionally one status, with the offer's title and reference. */
export async function listContactRequests(
  status: ContactStatus | undefined,
  database: Database = db(),
) {
  const rows = await database
    .select({
      id: contactRequests.id,
      name: contactRequests.name,
      email: contactRequests.email,
      phone: contactRequests.phone,
      message: contactRequests.message,
      status: contactRequests.status,
      createdAt: contactRequests.createdAt,
      updatedAt: contactRequests.updatedAt,
      offerId: contactRequests.offerId,
      currentTitle: offers.title,
      currentReference: offers.reference,
      snapshotTitle: contactRequests.offerTitle,
      snapshotReference: contactRequests.offerReference,
    })
    .from(contactRequests)
    .leftJoin(offers, eq(offers.id, contactRequests.offerId))
    .where(status ? eq(contactRequests.status, status) : undefined)
    .orderBy(desc(contactRequests.createdAt), desc(contactRequests.id));
  return rows.map(
    ({ currentTitle, currentReference, snapshotTitle, snapshotReference, ...row }) => ({
      ...row,
      offer: requestOffer({ currentTitle, currentReference, snapshotTitle, snapshotReference }),
    }),
  );
}

export type AdminContactRequest = Awaited<ReturnType<typeof listContactRequests>>[number];

/** Sets the status (any status from any other, spec section 4) and updated_at. False when the request is gone. */
export async function updateContactStatus(
  id: number,
  status: ContactStatus,
  database: Database = db(),
): Promise<boolean> {
  const rows = await database
    .update(contactRequests)
    .set({ status, updatedAt: sql`now()` })
    .where(eq(contactRequests.id, id))
    .returning({ id: contactRequests.id });
  return rows.length > 0;
}

/** Dashboard counts, computed by the database in one pass. */
export async function contactRequestStats(database: Database = db()) {
  const [row] = await database
    .select({
      total: count(),
      pending: sql<number>`(count(*) filter (where ${contactRequests.status} = 'pending'))::int`,
      inProgress: sql<number>`(count(*) filter (where ${contactRequests.status} = 'in_progress'))::int`,
      completed: sql<number>`(count(*) filter (where ${contactRequests.status} = 'completed'))::int`,
    })
    .from(contactRequests);
  return row;
}
