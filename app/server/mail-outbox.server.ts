import { db, type Database } from "./db.server";
import { mailOutbox } from "./schema.server";

/** What a mail of the outbox announces; its content is rendered when it is sent. */
export const MAIL_KINDS = { contactNotification: "contact_notification" } as const;

/**
 * Queues the sales team's notification of one contact request. Call it with the transaction that
 * stores (or un-flags) the request, so that the request and its mail exist together or not at all.
 */
export async function enqueueContactNotification(
  contactRequestId: number,
  database: Database = db(),
): Promise<void> {
  await database
    .insert(mailOutbox)
    .values({ contactRequestId, kind: MAIL_KINDS.contactNotification });
}
