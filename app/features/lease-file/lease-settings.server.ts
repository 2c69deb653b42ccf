// `Barème LOA`'s part of the LOA file (issue 41): the documents the financer asks for (their list,
// its order) and the financer the file is handed to (its name and address, in app_state).
import { asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import {
  appState,
  contactRequests,
  leaseDocumentKinds,
  leaseFiles,
} from "~/platform/schema.server";
import { settleFileStatus } from "./lease-file.server";

export const LEASE_FINANCER_KEY = "lease_financer";

export const FINANCER_NAME_MAX = 120;
export const FINANCER_EMAIL_MAX = 254;
export const KIND_TITLE_MAX = 120;
export const KIND_PURPOSE_MAX = 300;

/** The financer as stored (JSON in app_state): no address means the team sends the archive itself. */
const storedFinancerSchema = z.object({
  name: z.string().trim().min(1).max(FINANCER_NAME_MAX),
  email: z.email().max(FINANCER_EMAIL_MAX).nullable(),
});

export type LeaseFinancer = z.infer<typeof storedFinancerSchema>;

/** The financer the file goes to: as saved, else named by LEASING_PARTNER with no address. */
export async function readLeaseFinancer(database: Database = db()): Promise<LeaseFinancer> {
  const [row] = await database
    .select({ value: appState.value })
    .from(appState)
    .where(eq(appState.key, LEASE_FINANCER_KEY));
  const fallback = { name: env().LEASING_PARTNER, email: null };
  if (!row) return fallback;
  let parsed: ReturnType<typeof storedFinancerSchema.safeParse>;
  try {
    parsed = storedFinancerSchema.safeParse(JSON.parse(row.value));
  } catch {
    parsed = storedFinancerSchema.safeParse(undefined);
  }
  if (parsed.success) return parsed.data;
  // Written by hand, or by another version: the default rather than a broken page.
  log.warn("lease financer setting unreadable, default used", { key: LEASE_FINANCER_KEY });
  return fallback;
}

export async function saveLeaseFinancer(
  financer: LeaseFinancer,
  database: Database = db(),
): Promise<void> {
  const value = JSON.stringify(storedFinancerSchema.parse(financer));
  await database
    .insert(appState)
    .values({ key: LEASE_FINANCER_KEY, value })
    .onConflictDoUpdate({ target: appState.key, set: { value, updatedAt: sql`now()` } });
}

export type DocumentKindInput = { title: string; purpose: string };

/** True when `error` (or its cause) is the unique index on the titles' lower case. */
function isTitleTaken(error: unknown): boolean {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (
      code === "23505" &&
      (constraint === undefined || constraint === "lease_document_kinds_title_key")
    ) {
      return true;
    }
  }
  return false;
}

/**
 * The files still collecting documents follow the list: a document added makes a complete file
 * incomplete, one removed may complete it (its owner then told, as after an upload).
 */
async function settleCollectingFiles(tx: Database, actor: { id: number; email: string }) {
  const collecting = await tx
    .select({ id: leaseFiles.contactRequestId })
    .from(leaseFiles)
    .innerJoin(contactRequests, eq(contactRequests.id, leaseFiles.contactRequestId))
    .where(inArray(contactRequests.status, ["file_incomplete", "file_complete"]))
    .orderBy(asc(leaseFiles.contactRequestId));
  for (const file of collecting) await settleFileStatus(tx, file.id, actor);
}

export async function addDocumentKind(
  input: DocumentKindInput,
  actor: { id: number; email: string },
  database: Database = db(),
): Promise<{ kind: "added"; id: number } | { kind: "duplicate" }> {
  return database.transaction(async (tx) => {
    const [last] = await tx
      .select({ position: sql<number>`coalesce(max(${leaseDocumentKinds.position}), 0)` })
      .from(leaseDocumentKinds);
    // The unique index decides (two people adding the same title at once): no row means taken.
    const [row] = await tx
      .insert(leaseDocumentKinds)
      .values({ ...input, position: Number(last?.position ?? 0) + 1 })
      .onConflictDoNothing()
      .returning({ id: leaseDocumentKinds.id });
    if (!row) return { kind: "duplicate" } as const;
    await settleCollectingFiles(tx, actor);
    return { kind: "added", id: row.id } as const;
  });
}

/** A new title or purpose; the documents already received keep the title they were sent under. */
export async function updateDocumentKind(
  id: number,
  input: DocumentKindInput,
  database: Database = db(),
): Promise<"updated" | "duplicate" | "missing"> {
  try {
    const rows = await database
      .update(leaseDocumentKinds)
      .set({ ...input, updatedAt: sql`now()` })
      .where(eq(leaseDocumentKinds.id, id))
      .returning({ id: leaseDocumentKinds.id });
    return rows.length ? "updated" : "missing";
  } catch (error) {
    if (isTitleTaken(error)) return "duplicate";
    throw error;
  }
}

/**
 * Removes a document from the list; its title, or undefined when it was already gone. Documents
 * already received stay in their files (under `Autres pièces`), with the title they were sent as.
 */
export async function removeDocumentKind(
  id: number,
  actor: { id: number; email: string },
  database: Database = db(),
): Promise<string | undefined> {
  return database.transaction(async (tx) => {
    const [row] = await tx
      .delete(leaseDocumentKinds)
      .where(eq(leaseDocumentKinds.id, id))
      .returning({ title: leaseDocumentKinds.title });
    if (row) await settleCollectingFiles(tx, actor);
    return row?.title;
  });
}

/** Moves a document one place up or down the list; its title, or undefined when it is gone. */
export async function moveDocumentKind(
  id: number,
  direction: "up" | "down",
  database: Database = db(),
): Promise<string | undefined> {
  return database.transaction(async (tx) => {
    // The whole (short) list locked and numbered again: equal positions never swap to nothing.
    const kinds = await tx
      .select({ id: leaseDocumentKinds.id, title: leaseDocumentKinds.title })
      .from(leaseDocumentKinds)
      .orderBy(asc(leaseDocumentKinds.position), asc(leaseDocumentKinds.id))
      .for("update");
    const index = kinds.findIndex((kind) => kind.id === id);
    if (index < 0) return undefined;
    const other = direction === "up" ? index - 1 : index + 1;
    if (other >= 0 && other < kinds.length) {
      [kinds[index], kinds[other]] = [kinds[other], kinds[index]];
    }
    for (const [position, kind] of kinds.entries()) {
      await tx
        .update(leaseDocumentKinds)
        .set({ position: position + 1 })
        .where(eq(leaseDocumentKinds.id, kind.id));
    }
    return kinds.find((kind) => kind.id === id)?.title;
  });
}
