import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";
import { UNATTACHED_RETENTION_DAYS } from "~/platform/retention";
import { requestMessages } from "~/platform/schema.server";
import { followIncoming, requestByReference } from "./incoming.server";
import { withAttachments } from "./attachments.server";
import { shownMessageColumns } from "./conversation.server";

// `Non rattachés` (issue 40): messages read from the mailbox that no request could be found for.
// A salesperson attaches one to its request by the reference, or deletes it.

export const UNATTACHED_PAGE_SIZE = 100;

const unattached = and(
  isNull(requestMessages.contactRequestId),
  eq(requestMessages.direction, "inbound"),
);

/** The messages waiting, newest first (with their files), and how many wait. */
export async function listUnattached(database: Database = db()) {
  const [rows, count] = await Promise.all([
    database
      .select(shownMessageColumns)
      .from(requestMessages)
      .where(unattached)
      .orderBy(desc(requestMessages.createdAt), desc(requestMessages.id))
      .limit(UNATTACHED_PAGE_SIZE),
    countUnattached(database),
  ]);
  return { messages: await withAttachments(rows, database), count };
}

export type UnattachedMessage = Awaited<ReturnType<typeof listUnattached>>["messages"][number];

/** How many messages wait for a request (the requests list links to them). */
export async function countUnattached(database: Database = db()): Promise<number> {
  const [{ count }] = await database
    .select({ count: sql<number>`count(*)::int` })
    .from(requestMessages)
    .where(unattached);
  return count;
}

/** Attaches a waiting message to the request `reference` names; it then counts there as read. */
export async function attachMessage(
  id: number,
  reference: string,
  database: Database = db(),
): Promise<
  { kind: "attached"; contactRequestId: number } | { kind: "missing" } | { kind: "no-request" }
> {
  const contactRequestId = await requestByReference(reference, database);
  if (!contactRequestId) return { kind: "no-request" };
  return database.transaction(async (tx) => {
    const [message] = await tx
      .update(requestMessages)
      .set({ contactRequestId })
      .where(and(eq(requestMessages.id, id), unattached))
      .returning({ kind: requestMessages.kind });
    if (!message) return { kind: "missing" };
    await followIncoming(message.kind, contactRequestId, id, tx);
    return { kind: "attached", contactRequestId };
  });
}

/** Deletes a waiting message (nothing when it was attached or deleted meanwhile). */
export async function discardMessage(id: number, database: Database = db()): Promise<boolean> {
  const deleted = await database
    .delete(requestMessages)
    .where(and(eq(requestMessages.id, id), unattached))
    .returning({ id: requestMessages.id });
  return deleted.length > 0;
}

const fromAddress = (email: string) =>
  and(unattached, sql`lower(${requestMessages.authorEmail}) = lower(${email})`);

/** The waiting messages one address wrote (a person's data: their export and erasure). */
export function unattachedOfAddress(email: string, database: Database = db()) {
  return database
    .select({
      id: requestMessages.id,
      subject: requestMessages.subject,
      body: requestMessages.body,
      createdAt: requestMessages.createdAt,
    })
    .from(requestMessages)
    .where(fromAddress(email))
    .orderBy(requestMessages.createdAt, requestMessages.id);
}

/** Deletes the waiting messages one address wrote; returns how many. */
export async function deleteUnattachedOfAddress(
  email: string,
  database: Database,
): Promise<number> {
  const deleted = await database
    .delete(requestMessages)
    .where(fromAddress(email))
    .returning({ id: requestMessages.id });
  return deleted.length;
}

/** The daily purge's part: waiting messages older than UNATTACHED_RETENTION_DAYS; how many. */
export async function purgeUnattached(database: Database = db()): Promise<number> {
  const deleted = await database
    .delete(requestMessages)
    .where(
      and(
        unattached,
        sql`${requestMessages.createdAt} < now() - make_interval(days => ${UNATTACHED_RETENTION_DAYS})`,
      ),
    )
    .returning({ id: requestMessages.id });
  return deleted.length;
}
