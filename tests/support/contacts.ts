import { asc, sql, type SQL } from "drizzle-orm";
import { CONTACT_STATUSES, type ContactStatus } from "../../app/lib/domain";
import type { Database } from "../../app/platform/db.server";
import {
  contactNotes,
  contactRequestCounts,
  contactRequests,
  contactStatusChanges,
  mailOutbox,
} from "../../app/platform/schema.server";

/** Visitor n's request as createContactRequest takes it from the form: no phone, no offer. */
/** Every status counted 0: a test names only the statuses it expects, a new status adds none. */
export const NO_STATUS_COUNTS = Object.fromEntries(CONTACT_STATUSES.map((s) => [s, 0])) as Record<
  ContactStatus,
  number
>;

export const visitor = (n: number) => ({
  name: `Visiteur ${n}`,
  email: `visiteur${n}@example.fr`,
  phone: null,
  message: `Bonjour ${n}`,
  offer: null,
});

/**
 * A contact request with what an operator attaches to it, timestamps given as SQL (e.g.
 * sql`now() - interval '37 months'`) so that they come from the database's clock.
 */
export async function insertRequest(
  database: Database,
  options: {
    name: string;
    email: string;
    createdAt?: SQL;
    updatedAt?: SQL;
    spam?: boolean;
    notes?: { body: string; at?: SQL }[];
    statusChanges?: number;
    mails?: number;
  },
): Promise<number> {
  const [row] = await database
    .insert(contactRequests)
    .values({
      name: options.name,
      email: options.email,
      phone: "06 12 34 56 78",
      message: `Message de ${options.name}\nsur deux lignes.`,
      suspectedSpam: options.spam ?? false,
      createdAt: options.createdAt ?? sql`now()`,
      updatedAt: options.updatedAt ?? options.createdAt ?? sql`now()`,
    })
    .returning({ id: contactRequests.id });
  for (const note of options.notes ?? []) {
    await database.insert(contactNotes).values({
      contactRequestId: row.id,
      authorEmail: "commercial@example.fr",
      body: note.body,
      createdAt: note.at ?? sql`now()`,
    });
  }
  for (let i = 0; i < (options.statusChanges ?? 0); i++) {
    await database.insert(contactStatusChanges).values({
      contactRequestId: row.id,
      fromStatus: i % 2 ? "in_progress" : "pending",
      toStatus: i % 2 ? "completed" : "in_progress",
      authorEmail: "commercial@example.fr",
    });
  }
  for (let i = 0; i < (options.mails ?? 0); i++) {
    await database
      .insert(mailOutbox)
      .values({ contactRequestId: row.id, kind: "contact_notification" });
  }
  return row.id;
}

/** Every row of the tables that hold contact data, in a stable order. */
export async function contactTables(database: Database) {
  return {
    requests: await database.select().from(contactRequests).orderBy(asc(contactRequests.id)),
    notes: await database.select().from(contactNotes).orderBy(asc(contactNotes.id)),
    statusChanges: await database
      .select()
      .from(contactStatusChanges)
      .orderBy(asc(contactStatusChanges.id)),
    mails: await database.select().from(mailOutbox).orderBy(asc(mailOutbox.id)),
    counts: await database
      .select()
      .from(contactRequestCounts)
      .orderBy(asc(contactRequestCounts.key)),
  };
}

/** The per-status counters (zeros left out) and the same computed from the rows: they must agree. */
export async function countsAndRecount(database: Database) {
  const rows = await database.select().from(contactRequestCounts);
  const kept = Object.fromEntries(rows.filter((r) => r.count !== 0).map((r) => [r.key, r.count]));
  const result = (await database.execute(
    sql`select (case when suspected_spam then 'spam' else 'status:' || status end) as key,
               count(*)::int as count from contact_requests group by 1`,
  )) as unknown as { rows: { key: string; count: number }[] };
  return { counters: kept, recount: Object.fromEntries(result.rows.map((r) => [r.key, r.count])) };
}
