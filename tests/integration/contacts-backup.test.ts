import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import {
  addContactNote,
  changeContactStatus,
  clearSuspectedSpam,
} from "../../app/features/desk/contact-changes.server";
import { contactStatusCounts } from "../../app/features/desk/contact-counts.server";
import { backupDatabase, restoreDatabase } from "../../app/platform/backup.server";
import { openPglite, type Database } from "../../app/platform/db.server";
import {
  contactNotes,
  contactRequests,
  contactStatusChanges,
  mailOutbox,
} from "../../app/platform/schema.server";
import { createAdmin } from "../support/admin";
import { testDatabaseKind, truncateAll } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";
import { NO_STATUS_COUNTS } from "../support/contacts";

// The operator's side of a request (notes, status history, outbox) survives a backup and a
// restore, and the per-status counters (derived, never dumped) are right afterwards.
const database = useTestDatabase();
let work: string;
beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "contacts-backup-"));
}, 60_000);
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
});

async function operatorRows(db: Database) {
  await db.execute(sql`set time zone 'UTC'`);
  return {
    requests: await db.select().from(contactRequests).orderBy(asc(contactRequests.id)),
    notes: await db.select().from(contactNotes).orderBy(asc(contactNotes.id)),
    history: await db.select().from(contactStatusChanges).orderBy(asc(contactStatusChanges.id)),
    outbox: await db.select().from(mailOutbox).orderBy(asc(mailOutbox.id)),
    counts: await contactStatusCounts(db),
  };
}

it(`keeps notes, history and outbox through backup and restore (${testDatabaseKind})`, async () => {
  const db = database.db;
  await truncateAll(db);
  const admin = await createAdmin(db);
  const ids: number[] = [];
  for (const name of ["Alice", "Bruno", "Chloé", "Robot"]) {
    const { id } = await createContactRequest(
      { name, email: `${name}@example.fr`, phone: null, message: `Bonjour ${name}`, offer: null },
      db,
      { suspectedSpam: name === "Robot" },
    );
    ids.push(id);
  }
  await changeContactStatus(ids[0], "in_progress", admin, db);
  await changeContactStatus(ids[0], "completed", admin, db);
  await changeContactStatus(ids[1], "cancelled", admin, db);
  await addContactNote(ids[0], "Rappeler mardi.\nDevis envoyé.", admin, db);
  await addContactNote(ids[2], 'Note 🚀 ; "citée"', admin, db);
  await clearSuspectedSpam(ids[3], db);
  const before = await operatorRows(db);
  expect(before.notes).toHaveLength(2);
  expect(before.history).toHaveLength(3);
  // One notification per request stored normally, one for the request cleared of suspicion.
  expect(before.outbox).toHaveLength(4);
  expect(before.counts).toEqual({
    ...NO_STATUS_COUNTS,
    pending: 2,
    completed: 1,
    cancelled: 1,
    total: 4,
    spam: 0,
  });

  const file = path.join(work, "backup.jsonl.gz");
  const dumped = await backupDatabase(database, file);
  expect(dumped).toMatchObject({ contact_notes: 2, contact_status_changes: 3, mail_outbox: 4 });
  expect(dumped).not.toHaveProperty("contact_request_counts");

  // Into a fresh embedded database (from PostgreSQL too when the suite runs there).
  const fresh = await openPglite();
  try {
    await fresh.withStartupLock((tx) => fresh.migrate(tx));
    await restoreDatabase(fresh.db, file);
    expect(await operatorRows(fresh.db)).toEqual(before);
  } finally {
    await fresh.close();
  }

  // Over the same database after more activity: everything is as it was, counters included.
  await changeContactStatus(ids[2], "completed", admin, db);
  await addContactNote(ids[1], "Après la sauvegarde", admin, db);
  await createContactRequest(
    { name: "Tard", email: "tard@example.fr", phone: null, message: "m", offer: null },
    db,
  );
  await restoreDatabase(db, file, { force: true });
  expect(await operatorRows(db)).toEqual(before);
  // New rows continue after the restored ids.
  const [note] = await db
    .insert(contactNotes)
    .values({ contactRequestId: ids[0], authorEmail: "x@example.fr", body: "suite" })
    .returning();
  expect(note.id).toBe(3);
}, 120_000);
