import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { ContactInput } from "~/lib/contact";
import type { ContactMailData } from "~/lib/contact-mail";
import {
  CONTACT_PAGE_SIZE,
  SPAM_FILTER,
  type ContactListFilters,
  type ContactSort,
} from "~/lib/contact-filters";
import { csvLine, CSV_BOM, spreadsheetDateTime } from "~/lib/csv";
import { CONTACT_STATUS_LABELS, CONTACT_STATUSES, type ContactStatus } from "~/lib/domain";
import { likePattern } from "~/lib/offer-filters";
import {
  configurationLines,
  configure,
  readSelection,
  selectionParams,
  type ConfigurationSnapshot,
} from "~/lib/offer-options";
import { requestOffer, type RequestOfferColumns } from "~/lib/request-offer";
import { LEASE_PARAM } from "~/lib/lease";
import { centsText } from "~/lib/money";
import { db, type Database } from "./db.server";
import { leaseTerms } from "./lease.server";
import { env } from "./env.server";
import { log } from "./log.server";
import { enqueueContactNotification } from "./mail-outbox.server";
import { hitRateLimit } from "./rate-limit.server";
import {
  contactNotes,
  contactRequestCounts,
  contactRequests,
  contactStatusChanges,
  offers,
  type mailOutbox,
} from "./schema.server";
import type { AdminUser } from "./users.server";

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
  options: { suspectedSpam?: boolean; configuration?: string } = {},
) {
  const offerColumn = (column: typeof offers.id | typeof offers.title | typeof offers.reference) =>
    input.offer === null
      ? null
      : sql`(select ${column} from ${offers} where ${offers.id} = ${input.offer})`;
  const suspectedSpam = options.suspectedSpam ?? false;
  return database.transaction(async (tx) => {
    const configuration =
      input.offer === null
        ? null
        : await configurationSnapshot(
            input.offer,
            options.configuration ?? "",
            tx as unknown as Database,
          );
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
        configuration,
        suspectedSpam,
      })
      .returning({ id: contactRequests.id });
    if (!suspectedSpam) await enqueueContactNotification(row.id, tx as unknown as Database);
    return row;
  });
}

/**
 * The snapshot of an offer's configuration as chosen by `query` (offer-options.ts): null when the
 * offer has no options or is gone. Prices are the offer's at this moment.
 */
export async function configurationSnapshot(
  offerId: number,
  query: string,
  database: Database = db(),
): Promise<ConfigurationSnapshot | null> {
  const [offer] = await database
    .select({
      price: offers.price,
      setupFee: offers.setupFee,
      options: offers.options,
      type: offers.type,
      financedAmount: offers.financedAmount,
      leaseDurations: offers.leaseDurations,
      loaMonths: offers.loaMonths,
    })
    .from(offers)
    .where(eq(offers.id, offerId));
  if (!offer) return null;
  const params = new URLSearchParams(query);
  const lease = await leaseTerms(offer, params, database);
  const groups = offer.options ?? [];
  if (!groups.length && !lease) return null;
  const selection = readSelection(groups, params);
  // With a lease the monthly price is the rent of the chosen duration (as on the offer page).
  const base = lease ? { ...offer, price: centsText(lease.quote.monthly) } : offer;
  const configuration = configure(base, groups, selection);
  const chosen = selectionParams(groups, selection);
  if (lease) chosen.set(LEASE_PARAM, String(lease.quote.months));
  return {
    ...configuration,
    query: chosen.toString(),
    lease: lease && {
      months: lease.quote.months,
      option: lease.quote.option,
      total: configuration.monthly * lease.quote.months + lease.quote.option,
    },
  };
}

/** What a visitor's contact post comes to; the route turns it into a status and a message. */
export type ContactSubmission =
  { kind: "sent" } | { kind: "rate-limited"; retryAfterSeconds: number } | { kind: "unavailable" };

/**
 * A visitor's valid contact request: counted against the per-IP limit (in the database, so every
 * instance shares it), then stored and its notification queued. A filled honeypot is probably a
 * robot, but may be a browser's autofill: the request is kept as suspected spam, not mailed, and
 * the visitor is told the same as a person. Any database error is logged and `unavailable`.
 */
export async function submitContactRequest(
  input: ContactInput,
  submission: { honeypot: string; configuration?: string },
  context: { clientIp: string; requestId: string },
): Promise<ContactSubmission> {
  try {
    const { CONTACT_RATE_LIMIT, CONTACT_RATE_WINDOW_SECONDS } = env();
    const limit = await hitRateLimit(
      `contact:${context.clientIp}`,
      CONTACT_RATE_LIMIT,
      CONTACT_RATE_WINDOW_SECONDS * 1000,
    );
    if (!limit.allowed) {
      log.warn("contact rate limit reached", { requestId: context.requestId, count: limit.count });
      return { kind: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds };
    }
    const suspectedSpam = submission.honeypot !== "";
    const row = await createContactRequest(input, undefined, {
      suspectedSpam,
      configuration: submission.configuration,
    });
    log.info(
      suspectedSpam ? "contact request stored as suspected spam" : "contact request stored",
      { requestId: context.requestId, contactId: row.id },
    );
    return { kind: "sent" };
  } catch (error) {
    log.error("contact request failed", { requestId: context.requestId, error });
    return { kind: "unavailable" };
  }
}

/** The request as the notification shows it: the offer as it is now, or its snapshot if deleted. */
export async function contactMailData(
  contactRequestId: number,
  database: Database = db(),
): Promise<ContactMailData | null> {
  const [row] = await database
    .select({ ...sentColumns, ...offerColumns, currentPrice: offers.price })
    .from(contactRequests)
    .leftJoin(offers, eq(offers.id, contactRequests.offerId))
    .where(eq(contactRequests.id, contactRequestId));
  if (!row) return null;
  const { offerId: _, currentPrice, ...sent } = row;
  const { offer, ...request } = withOffer(sent);
  return {
    ...request,
    offer: offer && {
      title: offer.title,
      reference: offer.reference,
      price: offer.deleted ? null : currentPrice,
    },
  };
}

/** Per-status counts of contact requests, read from the counters the triggers keep (migration 0003). */
export async function contactStatusCounts(database: Database = db()) {
  const rows = await database.select().from(contactRequestCounts);
  const byKey = new Map(rows.map((r) => [r.key, r.count]));
  const status = Object.fromEntries(
    CONTACT_STATUSES.map((s) => [s, byKey.get(`status:${s}`) ?? 0]),
  ) as Record<ContactStatus, number>;
  return {
    ...status,
    // Suspected spam is counted apart: it is in no total until an administrator clears it.
    total: CONTACT_STATUSES.reduce((sum, s) => sum + status[s], 0),
    spam: byKey.get("spam") ?? 0,
  };
}

/** Dashboard counts: exact, a few rows read whatever the number of requests. */
export async function contactRequestStats(database: Database = db()) {
  const counts = await contactStatusCounts(database);
  return {
    total: counts.total,
    pending: counts.pending,
    inProgress: counts.in_progress,
    completed: counts.completed,
  };
}

// The administrator's side: list, request page, changes, export.

/** Characters of a message shown on a list card (the request's page shows all of it). */
export const MESSAGE_PREVIEW_LENGTH = 140;

/** The rows a list view shows: spam or not, one status, a search across the request's fields. */
function listConditions(filters: ContactListFilters): SQL | undefined {
  const spam = filters.status === SPAM_FILTER;
  const conditions: SQL[] = [eq(contactRequests.suspectedSpam, spam)];
  if (filters.status && filters.status !== SPAM_FILTER) {
    conditions.push(eq(contactRequests.status, filters.status));
  }
  if (filters.q) {
    // search_text holds name, e-mail, phone, message and offer reference, lower-cased and
    // trigram-indexed (schema.server.ts); the user's text is a bound, escaped parameter.
    conditions.push(sql`${contactRequests.searchText} like lower(${likePattern(filters.q)})`);
  }
  return and(...conditions);
}

function listOrder(sort: ContactSort) {
  return sort === "oldest"
    ? [asc(contactRequests.createdAt), asc(contactRequests.id)]
    : [desc(contactRequests.createdAt), desc(contactRequests.id)];
}

/** What the visitor sent: every reader of a request starts from these. */
export const sentColumns = {
  id: contactRequests.id,
  name: contactRequests.name,
  email: contactRequests.email,
  phone: contactRequests.phone,
  message: contactRequests.message,
  configuration: contactRequests.configuration,
  createdAt: contactRequests.createdAt,
};

/** The request's offer as it is now and as it was when sent (see withOffer). */
const offerColumns = {
  offerId: contactRequests.offerId,
  currentTitle: offers.title,
  currentReference: offers.reference,
  snapshotTitle: contactRequests.offerTitle,
  snapshotReference: contactRequests.offerReference,
};

/** The offer as it is now, or its snapshot once deleted, or null for a general request. */
function withOffer<T extends RequestOfferColumns>(row: T) {
  const { currentTitle, currentReference, snapshotTitle, snapshotReference, ...rest } = row;
  return {
    ...rest,
    offer: requestOffer({ currentTitle, currentReference, snapshotTitle, snapshotReference }),
  };
}

/** Count of a view: the counters table when there is no search (exact, a few rows read). */
async function countMatches(filters: ContactListFilters, database: Database): Promise<number> {
  if (!filters.q) {
    const counts = await contactStatusCounts(database);
    if (filters.status === SPAM_FILTER) return counts.spam;
    return filters.status ? counts[filters.status] : counts.total;
  }
  const [{ total }] = await database
    .select({ total: count() })
    .from(contactRequests)
    .where(listConditions(filters));
  return total;
}

/** One page of the admin list, with the number of matches. Long messages are cut by the database. */
export async function listContactRequests(
  filters: ContactListFilters,
  page = 1,
  database: Database = db(),
) {
  const total = await countMatches(filters, database);
  const rows =
    total === 0
      ? []
      : await database
          .select({
            id: contactRequests.id,
            name: contactRequests.name,
            email: contactRequests.email,
            phone: contactRequests.phone,
            message: sql<string>`left(${contactRequests.message}, ${MESSAGE_PREVIEW_LENGTH})`,
            messageCut: sql<boolean>`char_length(${contactRequests.message}) > ${MESSAGE_PREVIEW_LENGTH}`,
            status: contactRequests.status,
            suspectedSpam: contactRequests.suspectedSpam,
            createdAt: contactRequests.createdAt,
            ...offerColumns,
          })
          .from(contactRequests)
          .leftJoin(offers, eq(offers.id, contactRequests.offerId))
          .where(
            // Deferred join: the page's ids are found first (on the list's index), so a deep page
            // skips index entries instead of reading, cutting and joining every skipped request.
            inArray(
              contactRequests.id,
              database
                .select({ id: contactRequests.id })
                .from(contactRequests)
                .where(listConditions(filters))
                .orderBy(...listOrder(filters.sort))
                .limit(CONTACT_PAGE_SIZE)
                .offset((page - 1) * CONTACT_PAGE_SIZE),
            ),
          )
          .orderBy(...listOrder(filters.sort));
  return { requests: rows.map(withOffer), total };
}

export type AdminContactRequest = Awaited<
  ReturnType<typeof listContactRequests>
>["requests"][number];

/** The columns of a request's notes and status history (its page, the personal-data page). */
export const noteColumns = {
  id: contactNotes.id,
  contactRequestId: contactNotes.contactRequestId,
  authorEmail: contactNotes.authorEmail,
  body: contactNotes.body,
  createdAt: contactNotes.createdAt,
};
export const statusChangeColumns = {
  id: contactStatusChanges.id,
  contactRequestId: contactStatusChanges.contactRequestId,
  fromStatus: contactStatusChanges.fromStatus,
  toStatus: contactStatusChanges.toStatus,
  authorEmail: contactStatusChanges.authorEmail,
  createdAt: contactStatusChanges.createdAt,
};

/** The rows that belong to some requests (notes, status changes, mails), by date then id. */
export function rowsOfRequests<C extends SelectedFields>(
  table: typeof contactNotes | typeof contactStatusChanges | typeof mailOutbox,
  columns: C,
  ids: number[],
  direction: "asc" | "desc",
  database: Database,
): Promise<SelectResultFields<C>[]> {
  const by = direction === "asc" ? asc : desc;
  // Drizzle cannot infer a row type from a generic column set: the columns decide it.
  return database
    .select(columns)
    .from(table)
    .where(inArray(table.contactRequestId, ids))
    .orderBy(by(table.createdAt), by(table.id)) as Promise<SelectResultFields<C>[]>;
}

/** Everything about one request for its page: what the visitor sent, the offer, notes, history. */
export async function findContactRequest(id: number, database: Database = db()) {
  const [row] = await database
    .select({
      ...sentColumns,
      status: contactRequests.status,
      suspectedSpam: contactRequests.suspectedSpam,
      updatedAt: contactRequests.updatedAt,
      ...offerColumns,
      offerSlug: offers.slug,
      offerPrice: offers.price,
      offerActive: offers.isActive,
    })
    .from(contactRequests)
    .leftJoin(offers, eq(offers.id, contactRequests.offerId))
    .where(eq(contactRequests.id, id))
    .limit(1);
  if (!row) return undefined;
  const [notes, history] = await Promise.all([
    rowsOfRequests(contactNotes, noteColumns, [id], "desc", database),
    rowsOfRequests(contactStatusChanges, statusChangeColumns, [id], "desc", database),
  ]);
  return { ...withOffer(row), notes, history };
}

export type ContactRequestDetail = NonNullable<Awaited<ReturnType<typeof findContactRequest>>>;

export type ChangeOutcome = "changed" | "unchanged" | "missing";

/**
 * Sets the status (any status from any other, spec section 4), bumps updated_at and records who
 * did it, in one transaction. The row is locked first, so two administrators changing it at once
 * each record the status they really changed from. The same status again records nothing.
 */
export async function changeContactStatus(
  id: number,
  status: ContactStatus,
  actor: AdminUser,
  database: Database = db(),
): Promise<ChangeOutcome> {
  return database.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: contactRequests.status })
      .from(contactRequests)
      .where(eq(contactRequests.id, id))
      .for("update");
    if (!current) return "missing";
    if (current.status === status) return "unchanged";
    await tx
      .update(contactRequests)
      .set({ status, updatedAt: sql`now()` })
      .where(eq(contactRequests.id, id));
    await tx.insert(contactStatusChanges).values({
      contactRequestId: id,
      fromStatus: current.status,
      toStatus: status,
      authorId: actor.id,
      authorEmail: actor.email,
    });
    return "changed";
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
      .set({ updatedAt: sql`now()` })
      .where(eq(contactRequests.id, id))
      .returning({ id: contactRequests.id });
    if (touched.length === 0) return false;
    await tx
      .insert(contactNotes)
      .values({ contactRequestId: id, authorId: actor.id, authorEmail: actor.email, body });
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
      .set({ suspectedSpam: false, updatedAt: sql`now()` })
      .where(and(eq(contactRequests.id, id), eq(contactRequests.suspectedSpam, true)))
      .returning({ id: contactRequests.id });
    if (cleared.length > 0) {
      await enqueueContactNotification(id, tx as unknown as Database);
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
  | { intent: "note"; body: string }
  | { intent: "not-spam" };

export type ContactChangeResult = { kind: "done" } | { kind: "missing" } | { kind: "failed" };

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
  let outcome: ChangeOutcome | boolean;
  try {
    outcome =
      change.intent === "status"
        ? await changeContactStatus(id, change.status, actor)
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
  log.info("contact request updated", {
    requestId: context.requestId,
    contactId: id,
    intent: change.intent,
    userId: actor.id,
  });
  return { kind: "done" };
}

export const CSV_HEADERS = [
  "Date",
  "Nom",
  "Email",
  "Téléphone",
  "Offre",
  "Référence",
  "Statut",
  "Message",
  "Configuration",
] as const;

/** Rows read per query while exporting: memory stays flat whatever the number of requests. */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * Every request of a list view, in the list's order, as batches read by keyset (created_at, id):
 * no transaction or cursor stays open between batches (PGlite has one connection for everyone),
 * and the position is kept as the database's own text of created_at, microseconds included.
 */
export async function* exportContactRequests(
  filters: ContactListFilters,
  batchSize = EXPORT_BATCH_SIZE,
  database: Database = db(),
) {
  const oldest = filters.sort === "oldest";
  let after: { at: string; id: number } | undefined;
  for (;;) {
    const position = after
      ? oldest
        ? sql`(${contactRequests.createdAt}, ${contactRequests.id}) > (${after.at}::timestamptz, ${after.id})`
        : sql`(${contactRequests.createdAt}, ${contactRequests.id}) < (${after.at}::timestamptz, ${after.id})`
      : undefined;
    const rows = await database
      .select({
        ...sentColumns,
        position: sql<string>`${contactRequests.createdAt}::text`,
        status: contactRequests.status,
        ...offerColumns,
      })
      .from(contactRequests)
      .leftJoin(offers, eq(offers.id, contactRequests.offerId))
      .where(and(listConditions(filters), position))
      .orderBy(...listOrder(filters.sort))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((row) => {
      const { offer, ...rest } = withOffer(row);
      return {
        ...rest,
        offerTitle: offer?.title ?? null,
        offerReference: offer?.reference ?? null,
        statusLabel: CONTACT_STATUS_LABELS[row.status],
      };
    });
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    after = { at: last.position, id: last.id };
  }
}

/**
 * The CSV file of a list view (UTF-8 with BOM, ';', French headers), produced batch by batch as
 * the client reads it: a slow download holds one batch in memory, never the whole table.
 */
export function contactRequestsCsv(
  filters: ContactListFilters,
  database: Database = db(),
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = exportContactRequests(filters, EXPORT_BATCH_SIZE, database);
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_BOM + csvLine(CSV_HEADERS)));
          return;
        }
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        const text = next.value
          .map((r) =>
            csvLine([
              spreadsheetDateTime(r.createdAt),
              r.name,
              r.email,
              r.phone,
              r.offerTitle,
              r.offerReference,
              r.statusLabel,
              r.message,
              r.configuration ? configurationLines(r.configuration).join("\n") : "",
            ]),
          )
          .join("");
        controller.enqueue(encoder.encode(text));
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
