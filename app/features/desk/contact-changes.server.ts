// Changes an administrator makes to a request: status, owner, notes, spam.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { type ContactStatus } from "~/lib/domain";
import { selectRequestsWithOwner } from "~/platform/contact-columns.server";
import { db, type Database } from "~/platform/db.server";
import { log } from "~/platform/log.server";
import { enqueueWebhookEvent } from "~/features/webhooks/webhooks.server";
import {
  contactNotes,
  contactOwnerChanges,
  contactRequests,
  contactStatusChanges,
  users,
} from "~/platform/schema.server";
import { OWNER_ROLES, type AdminUser } from "~/features/accounts/users.server";
import { announceNewRequest } from "./contacts.server";
import { firstResponseDeadline } from "./first-response.server";

/** A status change or a note is an answer: the first one is kept (the dashboard's chart). */
const FIRST_ANSWER = sql`coalesce(${contactRequests.firstAnsweredAt}, now())`;

export type ChangeOutcome = "changed" | "unchanged" | "missing";

/** Who made a change, as each history line of a request records it. */
type Signed = { contactRequestId: number; authorId: number; authorEmail: string };

/**
 * One change of a request's field, in one transaction on its locked row: `lock` reads the field
 * (undefined: no such request) and the same value again records nothing; otherwise `record` adds
 * the history line (or says why the change cannot be made), the row gets `set` and its updated_at,
 * and the webhook announces which field changed.
 */
async function changeLockedRequest<C, Refusal extends string = never>(
  id: number,
  actor: AdminUser,
  database: Database,
  change: {
    field: "status" | "owner";
    lock: (tx: Database) => Promise<C | undefined>;
    unchanged: (current: C) => boolean;
    record: (tx: Database, current: C, signed: Signed) => Promise<Refusal | void>;
    set: PgUpdateSetSource<typeof contactRequests>;
  },
): Promise<ChangeOutcome | Refusal> {
  return database.transaction(async (tx) => {
    const current = await change.lock(tx);
    if (!current) return "missing";
    if (change.unchanged(current)) return "unchanged";
    const signed = { contactRequestId: id, authorId: actor.id, authorEmail: actor.email };
    const refused = await change.record(tx, current, signed);
    if (refused) return refused;
    await tx
      .update(contactRequests)
      .set({ ...change.set, updatedAt: sql`now()` })
      .where(eq(contactRequests.id, id));
    await enqueueWebhookEvent("request.updated", id, tx, { changes: [change.field] });
    return "changed";
  });
}

/**
 * Sets the status (any status from any other, spec section 4) and records who did it. The row is
 * locked first, so two administrators changing it at once each record the status they really
 * changed from.
 */
export async function changeContactStatus(
  id: number,
  status: ContactStatus,
  actor: AdminUser,
  database: Database = db(),
): Promise<ChangeOutcome> {
  return changeLockedRequest<{ status: ContactStatus }>(id, actor, database, {
    field: "status",
    lock: async (tx) =>
      (
        await tx
          .select({ status: contactRequests.status })
          .from(contactRequests)
          .where(eq(contactRequests.id, id))
          .for("update")
      )[0],
    unchanged: (current) => current.status === status,
    record: async (tx, current, signed) => {
      await tx
        .insert(contactStatusChanges)
        .values({ ...signed, fromStatus: current.status, toStatus: status });
    },
    set: { status, firstAnsweredAt: FIRST_ANSWER },
  });
}

/**
 * 'Attribuer à': sets the owner (an Administrateur or Commercial account) or none, records it in
 * the request's history and announces it. An account that cannot own requests is
 * `not-assignable`.
 */
export async function assignContactRequest(
  id: number,
  ownerId: number | null,
  actor: AdminUser,
  database: Database = db(),
): Promise<ChangeOutcome | "not-assignable"> {
  type Current = { ownerId: number | null; owner: string | null };
  return changeLockedRequest<Current, "not-assignable">(id, actor, database, {
    field: "owner",
    lock: async (tx) =>
      (
        await selectRequestsWithOwner({ ownerId: contactRequests.ownerId }, tx)
          .where(eq(contactRequests.id, id))
          .for("update", { of: contactRequests })
      )[0],
    unchanged: (current) => current.ownerId === ownerId,
    record: async (tx, current, signed) => {
      let toEmail: string | null = null;
      if (ownerId !== null) {
        const [owner] = await tx
          .select({ email: users.email })
          .from(users)
          .where(and(eq(users.id, ownerId), inArray(users.role, [...OWNER_ROLES])));
        if (!owner) return "not-assignable";
        toEmail = owner.email;
      }
      await tx
        .insert(contactOwnerChanges)
        .values({ ...signed, fromOwnerEmail: current.owner, toOwnerEmail: toEmail });
    },
    set: { ownerId },
  });
}

/** Adds an internal note signed by the administrator; a note counts as activity (updated_at). */
export async function addContactNote(
  id: number,
  body: string,
  actor: AdminUser,
  database: Database = db(),
): Promise<boolean> {
  return database.transaction(async (tx) => {
    const touched = await tx
      .update(contactRequests)
      .set({ updatedAt: sql`now()`, firstAnsweredAt: FIRST_ANSWER })
      .where(eq(contactRequests.id, id))
      .returning({ id: contactRequests.id });
    if (touched.length === 0) return false;
    await tx
      .insert(contactNotes)
      .values({ contactRequestId: id, authorId: actor.id, authorEmail: actor.email, body });
    await enqueueWebhookEvent("request.updated", id, tx, {
      changes: ["note"],
    });
    return true;
  });
}

/**
 * 'Ce n'est pas du spam': the request joins the normal list and its notification is queued in
 * the same transaction. Only a request still flagged changes, so a double click mails once.
 */
export async function clearSuspectedSpam(
  id: number,
  database: Database = db(),
): Promise<ChangeOutcome> {
  return database.transaction(async (tx) => {
    const cleared = await tx
      .update(contactRequests)
      // Its first answer is owed from now, as for a request just received.
      .set({
        suspectedSpam: false,
        updatedAt: sql`now()`,
        firstResponseDueAt: firstResponseDeadline(),
      })
      .where(and(eq(contactRequests.id, id), eq(contactRequests.suspectedSpam, true)))
      .returning({ id: contactRequests.id });
    if (cleared.length > 0) {
      await announceNewRequest(id, tx);
      return "changed";
    }
    const [exists] = await tx
      .select({ id: contactRequests.id })
      .from(contactRequests)
      .where(eq(contactRequests.id, id));
    return exists ? "unchanged" : "missing";
  });
}

/** One change an administrator makes to a request, from its page or from the list. */
export type ContactChange =
  | { intent: "status"; status: ContactStatus }
  | { intent: "assign"; ownerId: number | null }
  | { intent: "note"; body: string }
  | { intent: "not-spam" };

export type ContactChangeResult =
  { kind: "done" } | { kind: "missing" } | { kind: "not-assignable" } | { kind: "failed" };

/**
 * Applies one change to request `id` on behalf of `actor` (each is one transaction and records its
 * author); `missing` when the request is gone, `failed` (logged) on a database error.
 */
export async function applyContactChange(
  id: number,
  change: ContactChange,
  actor: AdminUser,
  context: { requestId: string },
): Promise<ContactChangeResult> {
  let outcome: ChangeOutcome | "not-assignable" | boolean;
  try {
    outcome =
      change.intent === "status"
        ? await changeContactStatus(id, change.status, actor)
        : change.intent === "assign"
          ? await assignContactRequest(id, change.ownerId, actor)
          : change.intent === "note"
            ? await addContactNote(id, change.body, actor)
            : await clearSuspectedSpam(id);
  } catch (error) {
    log.error("contact request update failed", {
      requestId: context.requestId,
      intent: change.intent,
      error,
    });
    return { kind: "failed" };
  }
  if (outcome === false || outcome === "missing") return { kind: "missing" };
  if (outcome === "not-assignable") return { kind: "not-assignable" };
  log.info("contact request updated", {
    requestId: context.requestId,
    contactId: id,
    intent: change.intent,
    userId: actor.id,
  });
  return { kind: "done" };
}

/** Marks a request as suspected spam from the list ('Marquer comme spam'): out of the list and counts. */
export async function markSuspectedSpam(
  id: number,
  database: Database = db(),
): Promise<ChangeOutcome> {
  const rows = await database
    .update(contactRequests)
    .set({ suspectedSpam: true, updatedAt: sql`now()` })
    .where(and(eq(contactRequests.id, id), eq(contactRequests.suspectedSpam, false)))
    .returning({ id: contactRequests.id });
  return rows.length > 0 ? "changed" : "unchanged";
}
